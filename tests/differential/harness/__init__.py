"""harness — the shared pieces of the differential tests and the benchmark: the model corpus
(corpus), the Torsion side driven through the torsion-sim binary (torsion), the MuJoCo oracle
side (oracle), the tolerance checks (compare) and field-by-field diagnosis (diagnose)."""
