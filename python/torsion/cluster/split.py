"""torsion.cluster.split — how a batch is cut into subsets and handed to the daemons.

plan() gives each daemon a contiguous share of items [0, n) in proportion to its workers,
cut into subsets that shrink towards the share's end. WorkQueues hands them out:
a daemon takes from the front of its own run; a subset given back after a failure is taken
first by anyone; a daemon whose run is empty steals from the back of the longest other
run (work stealing at the end of a batch). Pure Python, no Ray."""
from __future__ import annotations

import collections
import threading
from typing import Callable, Deque, Dict, List, Optional, Sequence


class Subset:
    """Items [lo, hi) of a batch; index is its position in batch order."""

    __slots__ = ("index", "lo", "hi", "tries", "failed_on")

    def __init__(self, index: int, lo: int, hi: int):
        self.index = index
        self.lo = lo
        self.hi = hi
        self.tries = 0
        self.failed_on: List[int] = []

    def __len__(self):
        return self.hi - self.lo

    def __repr__(self):
        return "Subset(%d, [%d, %d))" % (self.index, self.lo, self.hi)


def plan(n: int, weights: Sequence[int], split_factor: int = 4, max_items: int = 0,
         min_items: int = 1) -> List[List[Subset]]:
    """Subsets of [0, n) per daemon. Daemon d's run covers a contiguous share of n
    proportional to weights[d] (its workers); within it each subset takes 1/split_factor of
    what remains of the share (guided: large subsets first, single items at the end, so the
    daemons finish together and a thief steals small subsets), each between min_items and
    max_items (0: no cap) items."""
    if n < 0 or not weights or any(w < 1 for w in weights) or split_factor < 1:
        raise ValueError("plan needs n >= 0, weights >= 1 and split_factor >= 1")
    total_w = sum(weights)
    runs: List[List[Subset]] = []
    lo, cum, index = 0, 0, 0
    for w in weights:
        cum += w
        hi = (n * cum) // total_w
        run: List[Subset] = []
        while lo < hi:
            size = max(min_items, -(-(hi - lo) // split_factor))
            if max_items:
                size = min(size, max_items)
            size = min(size, hi - lo)
            run.append(Subset(index, lo, lo + size))
            index += 1
            lo += size
        runs.append(run)
    return runs


class WorkQueues:
    """Thread-safe hand-out of a plan's subsets to daemon threads, with stealing, give-back
    after failures and in-order completion tracking."""

    def __init__(self, runs: List[List[Subset]]):
        self._cv = threading.Condition()
        self._runs: List[Deque[Subset]] = [collections.deque(r) for r in runs]
        self._retry: Deque[Subset] = collections.deque()
        self._down = set()
        self.total = sum(len(r) for r in runs)
        self.done: Dict[int, object] = {}
        self.error: Optional[BaseException] = None
        self.steals = 0
        self.retries = 0
        self.in_flight = 0

    @property
    def finished(self) -> bool:
        return self.error is not None or len(self.done) == self.total

    def take(self, d: int) -> Optional[Subset]:
        """The next subset for daemon d, waiting while others are in flight that could still
        fail back; None when the batch is finished (or failed, or d is down)."""
        with self._cv:
            while True:
                if self.finished or d in self._down:
                    return None
                s = self._pop(d)
                if s is not None:
                    self.in_flight += 1
                    return s
                if self.in_flight == 0:
                    return None
                self._cv.wait()

    def _pop(self, d: int) -> Optional[Subset]:
        # failed-back subsets first (they hold up in-order streaming), then d's own run,
        # then the back of the longest other run
        if self._retry:
            return self._retry.popleft()
        if self._runs[d]:
            return self._runs[d].popleft()
        victim = max(range(len(self._runs)), key=lambda k: sum(len(s) for s in self._runs[k]))
        if self._runs[victim]:
            self.steals += 1
            return self._runs[victim].pop()
        return None

    def complete(self, s: Subset, result) -> None:
        """s finished with result."""
        with self._cv:
            self.in_flight -= 1
            self.done[s.index] = result
            self._cv.notify_all()

    def give_back(self, s: Subset, d: int, max_tries: int, why: BaseException) -> None:
        """s failed on daemon d: retried by another daemon, or the batch fails once s has
        been tried max_tries times."""
        with self._cv:
            self.in_flight -= 1
            s.tries += 1
            s.failed_on.append(d)
            if s.tries >= max_tries:
                self._set_error(why, s)
            else:
                self.retries += 1
                self._retry.append(s)
            self._cv.notify_all()

    def daemon_down(self, d: int) -> None:
        """Daemon d is gone for this batch: its unstarted run goes to the others."""
        with self._cv:
            self._down.add(d)
            self._retry.extend(self._runs[d])
            self._runs[d].clear()
            self._cv.notify_all()

    def fail(self, why: BaseException) -> None:
        """The batch fails with why (e.g. bad input reported by a daemon)."""
        with self._cv:
            if self.error is None:
                self.error = why
            self._cv.notify_all()

    def _set_error(self, why: BaseException, s: Subset) -> None:
        if self.error is None:
            self.error = why
            self.error.subset = s  # type: ignore[attr-defined]

    def daemon_up(self, d: int) -> None:
        """Daemon d is back (revived): it takes work again."""
        with self._cv:
            self._down.discard(d)
            self._cv.notify_all()

    def is_down(self, d: int) -> bool:
        return d in self._down

    def wait_for(self, index: int, poll: Callable[[], None], every: float = 0.2) -> object:
        """Block until subset index is done (its result) or the batch failed (raises the
        error); poll() runs every `every` seconds while waiting, without the lock (it may
        call daemon_up or fail)."""
        while True:
            with self._cv:
                if index in self.done:
                    return self.done[index]
                if self.error is not None:
                    raise self.error
                self._cv.wait(timeout=every)
                if index in self.done:
                    return self.done[index]
            poll()

    def stuck(self) -> bool:
        """Work is left, nothing is in flight and every daemon is down."""
        with self._cv:
            return (not self.finished and self.in_flight == 0
                    and len(self._down) == len(self._runs))

    def wake(self) -> None:
        """Wake waiters (a daemon thread ended)."""
        with self._cv:
            self._cv.notify_all()
