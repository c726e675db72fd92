/* torsion/mjxmacro.h — the field tables of mjModel and mjData as X-macros.
 *
 * Every array of mjModel and mjData is listed exactly once here, with its element type, its
 * name, the size field giving its row count and its column count. The struct definitions,
 * allocation, copying, the compiler's size bookkeeping and torsion-sim's field dump are all
 * generated from these tables, so adding a field is a one-line change.
 *
 * X(type, name, rows, cols): `rows` names an int field of mjModel (nbody, nv, ...);
 * `cols` is a constant expression that may use MJ_M(field) to refer to another size. */
#ifndef TORSION_MJXMACRO_H
#define TORSION_MJXMACRO_H

/* integer sizes of mjModel, in declaration order */
#define MJMODEL_INTS(X) \
  X(nq) X(nv) X(nu) X(na) X(nbody) X(nbvh) X(njnt) X(ngeom) X(nsite) X(ncam) X(nlight)        \
  X(nflex) X(nmesh) X(nmeshvert) X(nmeshnormal) X(nmeshtexcoord) X(nmeshface) X(nmeshgraph)   \
  X(nmeshpoly) X(nmeshpolyvert) X(nmeshpolymap)                                               \
  X(nskin) X(nskinvert) X(nskintexvert) X(nskinface) X(nskinbone) X(nskinbonevert)          \
  X(nhfield) X(nhfielddata) X(ntex) X(ntexdata) X(nmat) X(npair) X(nexclude) X(neq)           \
  X(ntendon) X(nwrap) X(nsensor) X(nnumeric) X(nnumericdata) X(ntext) X(ntextdata) X(ntuple) \
  X(ntupledata) X(nkey) X(nmocap) X(nplugin) X(npluginattr) X(nuser_body) X(nuser_jnt)       \
  X(nuser_geom) X(nuser_site) X(nuser_cam) X(nuser_tendon) X(nuser_actuator) X(nuser_sensor) \
  X(nnames) X(npaths) X(nM) X(nB) X(nC) X(nD) X(ntree) X(nJmom) X(nJten) X(ngravcomp)        \
  X(nemax) X(njmax) X(nconmax) X(nuserdata) X(nsensordata) X(npluginstate) X(nhistory)      \
  X(narena) X(nbuffer)

/* model arrays: compiled constants, addresses, trees and assets */
#define MJMODEL_POINTERS(X)                                     \
  /* default generalized coordinates */                        \
  X(mjtNum, qpos0, nq, 1)                                      \
  X(mjtNum, qpos_spring, nq, 1)                                \
  /* bodies */                                                 \
  X(int, body_parentid, nbody, 1)                              \
  X(int, body_rootid, nbody, 1)                                \
  X(int, body_weldid, nbody, 1)                                \
  X(int, body_mocapid, nbody, 1)                               \
  X(int, body_jntnum, nbody, 1)                                \
  X(int, body_jntadr, nbody, 1)                                \
  X(int, body_dofnum, nbody, 1)                                \
  X(int, body_dofadr, nbody, 1)                                \
  X(int, body_treeid, nbody, 1)                                \
  X(int, body_geomnum, nbody, 1)                               \
  X(int, body_geomadr, nbody, 1)                               \
  X(mjtByte, body_simple, nbody, 1)                            \
  X(mjtByte, body_sameframe, nbody, 1)                         \
  X(mjtNum, body_pos, nbody, 3)                                \
  X(mjtNum, body_quat, nbody, 4)                               \
  X(mjtNum, body_ipos, nbody, 3)                               \
  X(mjtNum, body_iquat, nbody, 4)                              \
  X(mjtNum, body_mass, nbody, 1)                               \
  X(mjtNum, body_subtreemass, nbody, 1)                        \
  X(mjtNum, body_inertia, nbody, 3)                            \
  X(mjtNum, body_invweight0, nbody, 2)                         \
  X(mjtNum, body_gravcomp, nbody, 1)                           \
  X(mjtNum, body_margin, nbody, 1)                             \
  X(int, body_contype, nbody, 1)                               \
  X(int, body_conaffinity, nbody, 1)                           \
  X(mjtNum, body_user, nbody, MJ_M(nuser_body))                \
  /* kinematic trees */                                        \
  X(int, tree_bodyadr, ntree, 1)                               \
  X(int, tree_bodynum, ntree, 1)                               \
  X(int, tree_dofadr, ntree, 1)                                \
  X(int, tree_dofnum, ntree, 1)                                \
  /* joints */                                                 \
  X(int, jnt_type, njnt, 1)                                    \
  X(int, jnt_qposadr, njnt, 1)                                 \
  X(int, jnt_dofadr, njnt, 1)                                  \
  X(int, jnt_bodyid, njnt, 1)                                  \
  X(int, jnt_group, njnt, 1)                                   \
  X(mjtBool, jnt_limited, njnt, 1)                             \
  X(mjtBool, jnt_actfrclimited, njnt, 1)                       \
  X(mjtBool, jnt_actgravcomp, njnt, 1)                         \
  X(mjtNum, jnt_solref, njnt, mjNREF)                          \
  X(mjtNum, jnt_solimp, njnt, mjNIMP)                          \
  X(mjtNum, jnt_pos, njnt, 3)                                  \
  X(mjtNum, jnt_axis, njnt, 3)                                 \
  X(mjtNum, jnt_stiffness, njnt, 1)                            \
  X(mjtNum, jnt_range, njnt, 2)                                \
  X(mjtNum, jnt_actfrcrange, njnt, 2)                          \
  X(mjtNum, jnt_margin, njnt, 1)                               \
  X(mjtNum, jnt_user, njnt, MJ_M(nuser_jnt))                   \
  /* degrees of freedom */                                     \
  X(int, dof_bodyid, nv, 1)                                    \
  X(int, dof_jntid, nv, 1)                                     \
  X(int, dof_parentid, nv, 1)                                  \
  X(int, dof_treeid, nv, 1)                                    \
  X(int, dof_Madr, nv, 1)                                      \
  X(int, dof_simplenum, nv, 1)                                 \
  X(mjtNum, dof_solref, nv, mjNREF)                            \
  X(mjtNum, dof_solimp, nv, mjNIMP)                            \
  X(mjtNum, dof_frictionloss, nv, 1)                           \
  X(mjtNum, dof_armature, nv, 1)                               \
  X(mjtNum, dof_damping, nv, 1)                                \
  X(mjtNum, dof_invweight0, nv, 1)                             \
  X(mjtNum, dof_M0, nv, 1)                                     \
  /* geoms */                                                  \
  X(int, geom_type, ngeom, 1)                                  \
  X(int, geom_contype, ngeom, 1)                               \
  X(int, geom_conaffinity, ngeom, 1)                           \
  X(int, geom_condim, ngeom, 1)                                \
  X(int, geom_bodyid, ngeom, 1)                                \
  X(int, geom_dataid, ngeom, 1)                                \
  X(int, geom_matid, ngeom, 1)                                 \
  X(int, geom_group, ngeom, 1)                                 \
  X(int, geom_priority, ngeom, 1)                              \
  X(mjtByte, geom_sameframe, ngeom, 1)                         \
  X(mjtNum, geom_solmix, ngeom, 1)                             \
  X(mjtNum, geom_solref, ngeom, mjNREF)                        \
  X(mjtNum, geom_solimp, ngeom, mjNIMP)                        \
  X(mjtNum, geom_size, ngeom, 3)                               \
  X(mjtNum, geom_aabb, ngeom, 6)                               \
  X(mjtNum, geom_rbound, ngeom, 1)                             \
  X(mjtNum, geom_pos, ngeom, 3)                                \
  X(mjtNum, geom_quat, ngeom, 4)                               \
  X(mjtNum, geom_friction, ngeom, 3)                           \
  X(mjtNum, geom_margin, ngeom, 1)                             \
  X(mjtNum, geom_gap, ngeom, 1)                                \
  X(mjtNum, geom_fluid, ngeom, mjNFLUID)                       \
  X(mjtNum, geom_user, ngeom, MJ_M(nuser_geom))                \
  X(float, geom_rgba, ngeom, 4)                                \
  /* sites */                                                  \
  X(int, site_type, nsite, 1)                                  \
  X(int, site_bodyid, nsite, 1)                                \
  X(int, site_matid, nsite, 1)                                 \
  X(int, site_group, nsite, 1)                                 \
  X(mjtByte, site_sameframe, nsite, 1)                         \
  X(mjtNum, site_size, nsite, 3)                               \
  X(mjtNum, site_pos, nsite, 3)                                \
  X(mjtNum, site_quat, nsite, 4)                               \
  X(mjtNum, site_user, nsite, MJ_M(nuser_site))                \
  X(float, site_rgba, nsite, 4)                                \
  /* cameras */                                                \
  X(int, cam_mode, ncam, 1)                                    \
  X(int, cam_bodyid, ncam, 1)                                  \
  X(int, cam_targetbodyid, ncam, 1)                            \
  X(mjtNum, cam_pos, ncam, 3)                                  \
  X(mjtNum, cam_quat, ncam, 4)                                 \
  X(mjtNum, cam_poscom0, ncam, 3)                              \
  X(mjtNum, cam_pos0, ncam, 3)                                 \
  X(mjtNum, cam_mat0, ncam, 9)                                 \
  X(mjtNum, cam_fovy, ncam, 1)                                 \
  X(mjtNum, cam_ipd, ncam, 1)                                  \
  X(mjtNum, cam_user, ncam, MJ_M(nuser_cam))                   \
  /* lights */                                                 \
  X(int, light_mode, nlight, 1)                                \
  X(int, light_bodyid, nlight, 1)                              \
  X(int, light_targetbodyid, nlight, 1)                        \
  X(int, light_type, nlight, 1)                                \
  X(mjtBool, light_castshadow, nlight, 1)                      \
  X(mjtBool, light_active, nlight, 1)                          \
  X(mjtNum, light_pos, nlight, 3)                              \
  X(mjtNum, light_dir, nlight, 3)                              \
  X(mjtNum, light_poscom0, nlight, 3)                          \
  X(mjtNum, light_pos0, nlight, 3)                             \
  X(mjtNum, light_dir0, nlight, 3)                             \
  X(float, light_attenuation, nlight, 3)                       \
  X(float, light_cutoff, nlight, 1)                            \
  X(float, light_exponent, nlight, 1)                          \
  X(float, light_ambient, nlight, 3)                           \
  X(float, light_diffuse, nlight, 3)                           \
  X(float, light_specular, nlight, 3)                          \
  /* meshes (vertices in the mesh frame, faces as vertex triples) */ \
  X(int, mesh_vertadr, nmesh, 1)                               \
  X(int, mesh_vertnum, nmesh, 1)                               \
  X(int, mesh_faceadr, nmesh, 1)                               \
  X(int, mesh_facenum, nmesh, 1)                               \
  X(int, mesh_graphadr, nmesh, 1)                              \
  X(mjtNum, mesh_pos, nmesh, 3)                                \
  X(mjtNum, mesh_quat, nmesh, 4)                               \
  X(mjtNum, mesh_scale, nmesh, 3)                              \
  X(float, mesh_vert, nmeshvert, 3)                            \
  X(int, mesh_face, nmeshface, 3)                              \
  X(int, mesh_graph, nmeshgraph, 1)                            \
  X(int, mesh_extrema, nmesh, 27)                              \
  X(int, mesh_polynum, nmesh, 1)                               \
  X(int, mesh_polyadr, nmesh, 1)                               \
  X(mjtNum, mesh_polynormal, nmeshpoly, 3)                     \
  X(int, mesh_polyvertadr, nmeshpoly, 1)                       \
  X(int, mesh_polyvertnum, nmeshpoly, 1)                       \
  X(int, mesh_polyvert, nmeshpolyvert, 1)                      \
  X(int, mesh_polymapadr, nmeshvert, 1)                        \
  X(int, mesh_polymapnum, nmeshvert, 1)                        \
  X(int, mesh_polymap, nmeshpolymap, 1)                        \
  /* skins (kept, not rendered; faces as vertex triples, bones with vertex weights) */ \
  X(int, skin_matid, nskin, 1)                                 \
  X(int, skin_group, nskin, 1)                                 \
  X(float, skin_rgba, nskin, 4)                                \
  X(float, skin_inflate, nskin, 1)                             \
  X(int, skin_vertadr, nskin, 1)                               \
  X(int, skin_vertnum, nskin, 1)                               \
  X(int, skin_texcoordadr, nskin, 1)                           \
  X(int, skin_faceadr, nskin, 1)                               \
  X(int, skin_facenum, nskin, 1)                               \
  X(int, skin_boneadr, nskin, 1)                               \
  X(int, skin_bonenum, nskin, 1)                               \
  X(float, skin_vert, nskinvert, 3)                            \
  X(float, skin_texcoord, nskintexvert, 2)                     \
  X(int, skin_face, nskinface, 3)                              \
  X(int, skin_bonevertadr, nskinbone, 1)                       \
  X(int, skin_bonevertnum, nskinbone, 1)                       \
  X(float, skin_bonebindpos, nskinbone, 3)                     \
  X(float, skin_bonebindquat, nskinbone, 4)                    \
  X(int, skin_bonebodyid, nskinbone, 1)                        \
  X(int, skin_bonevertid, nskinbonevert, 1)                    \
  X(float, skin_bonevertweight, nskinbonevert, 1)              \
  /* height fields */                                          \
  X(mjtNum, hfield_size, nhfield, 4)                           \
  X(int, hfield_nrow, nhfield, 1)                              \
  X(int, hfield_ncol, nhfield, 1)                              \
  X(int, hfield_adr, nhfield, 1)                               \
  X(float, hfield_data, nhfielddata, 1)                        \
  /* textures (kept, not rendered) */                          \
  X(int, tex_type, ntex, 1)                                    \
  X(int, tex_height, ntex, 1)                                  \
  X(int, tex_width, ntex, 1)                                   \
  X(int, tex_nchannel, ntex, 1)                                \
  X(mjtSize, tex_adr, ntex, 1)                                 \
  X(mjtByte, tex_data, ntexdata, 1)                            \
  /* materials (kept, not rendered) */                         \
  X(int, mat_texid, nmat, 1)                                   \
  X(mjtBool, mat_texuniform, nmat, 1)                          \
  X(float, mat_texrepeat, nmat, 2)                             \
  X(float, mat_emission, nmat, 1)                              \
  X(float, mat_specular, nmat, 1)                              \
  X(float, mat_shininess, nmat, 1)                             \
  X(float, mat_reflectance, nmat, 1)                           \
  X(float, mat_rgba, nmat, 4)                                  \
  /* explicit contact pairs */                                 \
  X(int, pair_dim, npair, 1)                                   \
  X(int, pair_geom1, npair, 1)                                 \
  X(int, pair_geom2, npair, 1)                                 \
  X(int, pair_signature, npair, 1)                             \
  X(mjtNum, pair_solref, npair, mjNREF)                        \
  X(mjtNum, pair_solreffriction, npair, mjNREF)                \
  X(mjtNum, pair_solimp, npair, mjNIMP)                        \
  X(mjtNum, pair_margin, npair, 1)                             \
  X(mjtNum, pair_gap, npair, 1)                                \
  X(mjtNum, pair_friction, npair, 5)                           \
  /* excluded body pairs */                                    \
  X(int, exclude_signature, nexclude, 1)                       \
  /* equality constraints */                                   \
  X(int, eq_type, neq, 1)                                      \
  X(int, eq_obj1id, neq, 1)                                    \
  X(int, eq_obj2id, neq, 1)                                    \
  X(int, eq_objtype, neq, 1)                                   \
  X(mjtBool, eq_active0, neq, 1)                               \
  X(mjtNum, eq_solref, neq, mjNREF)                            \
  X(mjtNum, eq_solimp, neq, mjNIMP)                            \
  X(mjtNum, eq_data, neq, mjNEQDATA)                           \
  /* tendons */                                                \
  X(int, tendon_adr, ntendon, 1)                               \
  X(int, tendon_num, ntendon, 1)                               \
  X(int, tendon_matid, ntendon, 1)                             \
  X(int, tendon_group, ntendon, 1)                             \
  X(mjtBool, tendon_limited, ntendon, 1)                       \
  X(mjtBool, tendon_actfrclimited, ntendon, 1)                 \
  X(mjtNum, tendon_width, ntendon, 1)                          \
  X(mjtNum, tendon_solref_lim, ntendon, mjNREF)                \
  X(mjtNum, tendon_solimp_lim, ntendon, mjNIMP)                \
  X(mjtNum, tendon_solref_fri, ntendon, mjNREF)                \
  X(mjtNum, tendon_solimp_fri, ntendon, mjNIMP)                \
  X(mjtNum, tendon_range, ntendon, 2)                          \
  X(mjtNum, tendon_actfrcrange, ntendon, 2)                    \
  X(mjtNum, tendon_margin, ntendon, 1)                         \
  X(mjtNum, tendon_stiffness, ntendon, 1)                      \
  X(mjtNum, tendon_damping, ntendon, 1)                        \
  X(mjtNum, tendon_armature, ntendon, 1)                       \
  X(mjtNum, tendon_frictionloss, ntendon, 1)                   \
  X(mjtNum, tendon_lengthspring, ntendon, 2)                   \
  X(mjtNum, tendon_length0, ntendon, 1)                        \
  X(mjtNum, tendon_invweight0, ntendon, 1)                     \
  /* static sparse pattern of the tendon Jacobian rows (CSR) */ \
  X(int, ten_J_rownnz, ntendon, 1)                             \
  X(int, ten_J_rowadr, ntendon, 1)                             \
  X(int, ten_J_colind, nJten, 1)                               \
  X(mjtNum, tendon_user, ntendon, MJ_M(nuser_tendon))          \
  X(float, tendon_rgba, ntendon, 4)                            \
  /* tendon path elements */                                   \
  X(int, wrap_type, nwrap, 1)                                  \
  X(int, wrap_objid, nwrap, 1)                                 \
  X(mjtNum, wrap_prm, nwrap, 1)                                \
  /* actuators */                                              \
  X(int, actuator_trntype, nu, 1)                              \
  X(int, actuator_dyntype, nu, 1)                              \
  X(int, actuator_gaintype, nu, 1)                             \
  X(int, actuator_biastype, nu, 1)                             \
  X(int, actuator_trnid, nu, 2)                                \
  X(int, actuator_actadr, nu, 1)                               \
  X(int, actuator_actnum, nu, 1)                               \
  X(int, actuator_group, nu, 1)                                \
  X(mjtBool, actuator_ctrllimited, nu, 1)                      \
  X(mjtBool, actuator_forcelimited, nu, 1)                     \
  X(mjtBool, actuator_actlimited, nu, 1)                       \
  X(mjtNum, actuator_dynprm, nu, mjNDYN)                       \
  X(mjtNum, actuator_gainprm, nu, mjNGAIN)                     \
  X(mjtNum, actuator_biasprm, nu, mjNBIAS)                     \
  X(mjtBool, actuator_actearly, nu, 1)                         \
  X(mjtNum, actuator_ctrlrange, nu, 2)                         \
  X(mjtNum, actuator_forcerange, nu, 2)                        \
  X(mjtNum, actuator_actrange, nu, 2)                          \
  X(mjtNum, actuator_gear, nu, 6)                              \
  X(mjtNum, actuator_cranklength, nu, 1)                       \
  X(mjtNum, actuator_acc0, nu, 1)                              \
  X(mjtNum, actuator_length0, nu, 1)                           \
  X(mjtNum, actuator_lengthrange, nu, 2)                       \
  X(mjtNum, actuator_user, nu, MJ_M(nuser_actuator))           \
  X(int, actuator_plugin, nu, 1)                               \
  /* engine plugin instances (mujoco.pid) */                   \
  X(int, plugin, nplugin, 1)                                   \
  X(int, plugin_stateadr, nplugin, 1)                          \
  X(int, plugin_statenum, nplugin, 1)                          \
  X(char, plugin_attr, npluginattr, 1)                         \
  X(int, plugin_attradr, nplugin, 1)                           \
  /* sensors (compiled so sizes match; evaluated later) */     \
  X(int, sensor_type, nsensor, 1)                              \
  X(int, sensor_datatype, nsensor, 1)                          \
  X(int, sensor_needstage, nsensor, 1)                         \
  X(int, sensor_objtype, nsensor, 1)                           \
  X(int, sensor_objid, nsensor, 1)                             \
  X(int, sensor_reftype, nsensor, 1)                           \
  X(int, sensor_refid, nsensor, 1)                             \
  X(int, sensor_intprm, nsensor, 3)                            \
  X(int, sensor_dim, nsensor, 1)                               \
  X(int, sensor_adr, nsensor, 1)                               \
  X(mjtNum, sensor_cutoff, nsensor, 1)                         \
  X(mjtNum, sensor_noise, nsensor, 1)                          \
  X(mjtNum, sensor_user, nsensor, MJ_M(nuser_sensor))          \
  /* custom numeric, text and tuple data */                    \
  X(int, numeric_adr, nnumeric, 1)                             \
  X(int, numeric_size, nnumeric, 1)                            \
  X(mjtNum, numeric_data, nnumericdata, 1)                     \
  X(int, text_adr, ntext, 1)                                   \
  X(int, text_size, ntext, 1)                                  \
  X(char, text_data, ntextdata, 1)                             \
  X(int, tuple_adr, ntuple, 1)                                 \
  X(int, tuple_size, ntuple, 1)                                \
  X(int, tuple_objtype, ntupledata, 1)                         \
  X(int, tuple_objid, ntupledata, 1)                           \
  X(mjtNum, tuple_objprm, ntupledata, 1)                       \
  /* keyframes */                                              \
  X(mjtNum, key_time, nkey, 1)                                 \
  X(mjtNum, key_qpos, nkey, MJ_M(nq))                          \
  X(mjtNum, key_qvel, nkey, MJ_M(nv))                          \
  X(mjtNum, key_act, nkey, MJ_M(na))                           \
  X(mjtNum, key_mpos, nkey, 3 * MJ_M(nmocap))                  \
  X(mjtNum, key_mquat, nkey, 4 * MJ_M(nmocap))                 \
  X(mjtNum, key_ctrl, nkey, MJ_M(nu))                          \
  /* name addresses into `names` */                            \
  X(int, name_bodyadr, nbody, 1)                               \
  X(int, name_jntadr, njnt, 1)                                 \
  X(int, name_geomadr, ngeom, 1)                               \
  X(int, name_siteadr, nsite, 1)                               \
  X(int, name_camadr, ncam, 1)                                 \
  X(int, name_lightadr, nlight, 1)                             \
  X(int, name_meshadr, nmesh, 1)                               \
  X(int, name_skinadr, nskin, 1)                               \
  X(int, name_hfieldadr, nhfield, 1)                           \
  X(int, name_texadr, ntex, 1)                                 \
  X(int, name_matadr, nmat, 1)                                 \
  X(int, name_pairadr, npair, 1)                               \
  X(int, name_excludeadr, nexclude, 1)                         \
  X(int, name_eqadr, neq, 1)                                   \
  X(int, name_tendonadr, ntendon, 1)                           \
  X(int, name_actuatoradr, nu, 1)                              \
  X(int, name_sensoradr, nsensor, 1)                           \
  X(int, name_numericadr, nnumeric, 1)                         \
  X(int, name_textadr, ntext, 1)                               \
  X(int, name_tupleadr, ntuple, 1)                             \
  X(int, name_keyadr, nkey, 1)                                 \
  X(char, names, nnames, 1)                                    \
  /* sparse structure of the inertia matrix (CSR, lower triangle, diagonal last) */ \
  X(int, M_rownnz, nv, 1)                                      \
  X(int, M_rowadr, nv, 1)                                      \
  X(int, M_colind, nC, 1)                                      \
  X(int, mapM2M, nC, 1)                                        \
  /* sparse structure of the full symmetric dof-dof pattern D */ \
  X(int, D_rownnz, nv, 1)                                      \
  X(int, D_rowadr, nv, 1)                                      \
  X(int, D_diag, nv, 1)                                        \
  X(int, D_colind, nD, 1)                                      \
  X(int, mapM2D, nD, 1)                                        \
  X(int, mapD2M, nM, 1)                                        \
  /* sparse structure of the body-dof pattern B */             \
  X(int, B_rownnz, nbody, 1)                                   \
  X(int, B_rowadr, nbody, 1)                                   \
  X(int, B_colind, nB, 1)

/* mjData arrays allocated once by mj_makeData */
#define MJDATA_POINTERS(X)                                     \
  /* state */                                                  \
  X(mjtNum, qpos, nq, 1)                                       \
  X(mjtNum, qvel, nv, 1)                                       \
  X(mjtNum, act, na, 1)                                        \
  X(mjtNum, history, nhistory, 1)                              \
  X(mjtNum, qacc_warmstart, nv, 1)                             \
  X(mjtNum, plugin_state, npluginstate, 1)                     \
  /* user inputs */                                            \
  X(mjtNum, ctrl, nu, 1)                                       \
  X(mjtNum, qfrc_applied, nv, 1)                               \
  X(mjtNum, xfrc_applied, nbody, 6)                            \
  X(mjtBool, eq_active, neq, 1)                                \
  X(mjtNum, mocap_pos, nmocap, 3)                              \
  X(mjtNum, mocap_quat, nmocap, 4)                             \
  /* dynamics outputs */                                       \
  X(mjtNum, qacc, nv, 1)                                       \
  X(mjtNum, act_dot, na, 1)                                    \
  X(mjtNum, userdata, nuserdata, 1)                            \
  X(mjtNum, sensordata, nsensordata, 1)                        \
  /* position-dependent: kinematics */                         \
  X(mjtNum, xpos, nbody, 3)                                    \
  X(mjtNum, xquat, nbody, 4)                                   \
  X(mjtNum, xmat, nbody, 9)                                    \
  X(mjtNum, xipos, nbody, 3)                                   \
  X(mjtNum, ximat, nbody, 9)                                   \
  X(mjtNum, xanchor, njnt, 3)                                  \
  X(mjtNum, xaxis, njnt, 3)                                    \
  X(mjtNum, geom_xpos, ngeom, 3)                               \
  X(mjtNum, geom_xmat, ngeom, 9)                               \
  X(mjtNum, site_xpos, nsite, 3)                               \
  X(mjtNum, site_xmat, nsite, 9)                               \
  X(mjtNum, cam_xpos, ncam, 3)                                 \
  X(mjtNum, cam_xmat, ncam, 9)                                 \
  X(mjtNum, light_xpos, nlight, 3)                             \
  X(mjtNum, light_xdir, nlight, 3)                             \
  /* position-dependent: com-based quantities */               \
  X(mjtNum, subtree_com, nbody, 3)                             \
  X(mjtNum, cdof, nv, 6)                                       \
  X(mjtNum, cinert, nbody, 10)                                 \
  /* position-dependent: tendons (ten_J on the model's sparse pattern) and transmission */ \
  X(int, ten_wrapadr, ntendon, 1)                              \
  X(int, ten_wrapnum, ntendon, 1)                              \
  X(mjtNum, ten_length, ntendon, 1)                            \
  X(mjtNum, ten_J, nJten, 1)                                   \
  X(int, wrap_obj, nwrap, 2)                                   \
  X(mjtNum, wrap_xpos, nwrap, 6)                               \
  X(mjtNum, actuator_length, nu, 1)                            \
  /* actuator moment arms: MuJoCo's sparse rows (CSR) */      \
  X(int, moment_rownnz, nu, 1)                                 \
  X(int, moment_rowadr, nu, 1)                                 \
  X(int, moment_colind, nJmom, 1)                              \
  X(mjtNum, actuator_moment, nJmom, 1)                         \
  /* position-dependent: inertia and its factorization (CSR, see M_rowadr) */ \
  X(mjtNum, crb, nbody, 10)                                    \
  X(mjtNum, M, nC, 1)                                          \
  X(mjtNum, qLD, nC, 1)                                        \
  X(mjtNum, qLDiagInv, nv, 1)                                  \
  /* velocity-dependent */                                     \
  X(mjtNum, ten_velocity, ntendon, 1)                          \
  X(mjtNum, actuator_velocity, nu, 1)                          \
  X(mjtNum, cvel, nbody, 6)                                    \
  X(mjtNum, cdof_dot, nv, 6)                                   \
  X(mjtNum, qfrc_bias, nv, 1)                                  \
  X(mjtNum, qfrc_spring, nv, 1)                                \
  X(mjtNum, qfrc_damper, nv, 1)                                \
  X(mjtNum, qfrc_gravcomp, nv, 1)                              \
  X(mjtNum, qfrc_fluid, nv, 1)                                 \
  X(mjtNum, qfrc_passive, nv, 1)                               \
  X(mjtNum, subtree_linvel, nbody, 3)                          \
  X(mjtNum, subtree_angmom, nbody, 3)                          \
  /* implicit integration: factorized M - h*D (CSR like M) */  \
  X(mjtNum, qH, nC, 1)                                         \
  X(mjtNum, qHDiagInv, nv, 1)                                  \
  /* velocity derivative of smooth forces and its LU (D pattern) */ \
  X(mjtNum, qDeriv, nD, 1)                                     \
  X(mjtNum, qLU, nD, 1)                                        \
  /* acceleration/force-dependent */                           \
  X(mjtNum, actuator_force, nu, 1)                             \
  X(mjtNum, qfrc_actuator, nv, 1)                              \
  X(mjtNum, qfrc_smooth, nv, 1)                                \
  X(mjtNum, qacc_smooth, nv, 1)                                \
  X(mjtNum, qfrc_constraint, nv, 1)                            \
  X(mjtNum, qfrc_inverse, nv, 1)                               \
  X(mjtNum, cacc, nbody, 6)                                    \
  X(mjtNum, cfrc_int, nbody, 6)                                \
  X(mjtNum, cfrc_ext, nbody, 6)

/* mjData arrays of the constraint islands (mj_island), also in the buffer. The rows give
 * each array's capacity: per-island arrays (MuJoCo: nisland rows) hold up to ntree
 * islands, idof arrays (MuJoCo: nidof rows) up to nv dofs. Only the first nisland / nidof
 * rows are meaningful, and none when nisland is 0. iacc and ifrc_constraint are set by the
 * per-island solve of CG and Newton (left unset by PGS). */
#define MJDATA_ISLAND_POINTERS(X)                              \
  /* trees */                                                  \
  X(int, tree_island, ntree, 1)                                \
  X(int, island_ntree, ntree, 1)                               \
  X(int, island_itreeadr, ntree, 1)                            \
  X(int, map_itree2tree, ntree, 1)                             \
  /* dofs */                                                   \
  X(int, dof_island, nv, 1)                                    \
  X(int, island_nv, ntree, 1)                                  \
  X(int, island_idofadr, ntree, 1)                             \
  X(int, island_dofadr, ntree, 1)                              \
  X(int, map_dof2idof, nv, 1)                                  \
  X(int, map_idof2dof, nv, 1)                                  \
  X(mjtNum, ifrc_smooth, nv, 1)                                \
  X(mjtNum, iacc_smooth, nv, 1)                                \
  X(mjtNum, iacc, nv, 1)                                       \
  X(mjtNum, ifrc_constraint, nv, 1)                            \
  /* constraint rows */                                        \
  X(int, island_ne, ntree, 1)                                  \
  X(int, island_nf, ntree, 1)                                  \
  X(int, island_nefc, ntree, 1)                                \
  X(int, island_iefcadr, ntree, 1)

#endif /* TORSION_MJXMACRO_H */
