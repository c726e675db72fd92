/* fuzz/fuzz_mjb.c — libFuzzer target: the binary model loader (mj_loadModelBuffer).
 *
 * Each input is given to mj_loadModelBuffer as it is. A refused input must not crash,
 * leak or trip UBSan; an accepted one must describe a model of exactly the input's size,
 * which saves again without trouble. Seeds: the binary format changes with the field tables,
 * so committed seeds would go stale; instead, with TORSION_FUZZ_MJB_SEEDS set to a
 * directory, the target writes the binaries of a few built-in models there before fuzzing
 * (scripts/fuzz.sh does this). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <torsion/torsion.h>

/* small models covering the kinds of arrays: joints, geoms, a mesh, tendons, actuators,
 * sensors, equality, keyframes, names */
static const char* const SEED_MODELS[] = {
    "<mujoco><worldbody><body><joint type='hinge'/><geom size='.1'/></body></worldbody>"
    "</mujoco>",
    "<mujoco><asset><mesh name='t' vertex='0 0 0 1 0 0 0 1 0 0 0 1'/></asset><worldbody>"
    "<geom type='plane' size='1 1 .1'/><body pos='0 0 1'><freejoint/><geom type='mesh' "
    "mesh='t'/></body></worldbody></mujoco>",
    "<mujoco><worldbody><site name='s0'/><body name='a'><joint name='j0' range='-1 1'/>"
    "<geom type='capsule' size='.05 .2'/><site name='s1' pos='0 0 .2'/><body pos='0 0 .4'>"
    "<joint name='j1' axis='1 0 0'/><geom size='.1'/></body></body></worldbody><tendon>"
    "<spatial name='t'><site site='s0'/><site site='s1'/></spatial><fixed name='f'><joint "
    "joint='j0' coef='1'/><joint joint='j1' coef='-1'/></fixed></tendon><equality><joint "
    "joint1='j0' joint2='j1'/></equality><actuator><motor name='m0' joint='j0'/><position "
    "joint='j1' "
    "kp='10'/><general tendon='t' dyntype='filter' dynprm='.1'/></actuator><sensor><jointpos "
    "joint='j0'/><tendonpos "
    "tendon='f'/><actuatorfrc actuator='m0'/></sensor><keyframe><key qpos='.1 .2'/></keyframe>"
    "</mujoco>",
};

/* write the seeds' binaries into the directory TORSION_FUZZ_MJB_SEEDS names, if any */
int LLVMFuzzerInitialize(int* argc, char*** argv) {
  (void)argc;
  (void)argv;
  const char* dir = getenv("TORSION_FUZZ_MJB_SEEDS");
  if (!dir) {
    return 0;
  }
  for (size_t i = 0; i < sizeof(SEED_MODELS) / sizeof(SEED_MODELS[0]); i++) {
    char error[500] = "";
    mjModel* m = tn_loadXMLString(SEED_MODELS[i], NULL, error, sizeof(error));
    if (!m) {
      fprintf(stderr, "fuzz_mjb: seed %zu does not compile: %s\n", i, error);
      continue;
    }
    char path[4096];
    snprintf(path, sizeof(path), "%s/model%zu.mjb", dir, i);
    mj_saveModel(m, path, NULL, 0);
    mj_deleteModel(m);
  }
  return 0;
}

/* the loader's complaints are expected: keep them off the fuzzer's output */
static void quiet(const char* msg) {
  (void)msg;
}

/* one input: load it; an accepted model must have the input's size and save again */
int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (size_t)INT32_MAX) {
    return 0;
  }
  mju_user_warning = quiet;
  mjModel* m = mj_loadModelBuffer(data, (int)size);
  if (m) {
    if (mj_sizeModel(m) != (mjtSize)size) {
      __builtin_trap();
    }
    void* copy = malloc(size);
    if (copy) {
      mj_saveModel(m, NULL, copy, (int)size);
      free(copy);
    }
    mj_deleteModel(m);
  }
  return 0;
}
