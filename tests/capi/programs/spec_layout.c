/* spec_layout.c — the binary layout of the model-editing structs (mjSpec, mjsBody, ...): the
 * size of each struct and the offset and size of each of its fields, in MuJoCo's field
 * order. Equal output on both libraries means a program can share these structs with either
 * (field names, order and types agree). Written against MuJoCo's C API only; MJ_INCLUDE
 * names the header. No arguments. mjSpec's fields after its mjOption are printed relative to
 * the field that follows it, so this program checks the spec structs only. */
#include <stddef.h>
#include <stdio.h>
#include MJ_INCLUDE

int main(void) {
  printf("mjsElement size %d\n", (int)sizeof(mjsElement));
  printf("mjsElement.elemtype %d %d\n", (int)offsetof(mjsElement, elemtype),
         (int)sizeof(((mjsElement*)0)->elemtype));
  printf("mjsElement.signature %d %d\n", (int)offsetof(mjsElement, signature),
         (int)sizeof(((mjsElement*)0)->signature));
  printf("mjsCompiler size %d\n", (int)sizeof(mjsCompiler));
  printf("mjsCompiler.autolimits %d %d\n", (int)offsetof(mjsCompiler, autolimits),
         (int)sizeof(((mjsCompiler*)0)->autolimits));
  printf("mjsCompiler.boundmass %d %d\n", (int)offsetof(mjsCompiler, boundmass),
         (int)sizeof(((mjsCompiler*)0)->boundmass));
  printf("mjsCompiler.boundinertia %d %d\n", (int)offsetof(mjsCompiler, boundinertia),
         (int)sizeof(((mjsCompiler*)0)->boundinertia));
  printf("mjsCompiler.settotalmass %d %d\n", (int)offsetof(mjsCompiler, settotalmass),
         (int)sizeof(((mjsCompiler*)0)->settotalmass));
  printf("mjsCompiler.balanceinertia %d %d\n", (int)offsetof(mjsCompiler, balanceinertia),
         (int)sizeof(((mjsCompiler*)0)->balanceinertia));
  printf("mjsCompiler.fitaabb %d %d\n", (int)offsetof(mjsCompiler, fitaabb),
         (int)sizeof(((mjsCompiler*)0)->fitaabb));
  printf("mjsCompiler.degree %d %d\n", (int)offsetof(mjsCompiler, degree),
         (int)sizeof(((mjsCompiler*)0)->degree));
  printf("mjsCompiler.eulerseq %d %d\n", (int)offsetof(mjsCompiler, eulerseq),
         (int)sizeof(((mjsCompiler*)0)->eulerseq));
  printf("mjsCompiler.discardvisual %d %d\n", (int)offsetof(mjsCompiler, discardvisual),
         (int)sizeof(((mjsCompiler*)0)->discardvisual));
  printf("mjsCompiler.usethread %d %d\n", (int)offsetof(mjsCompiler, usethread),
         (int)sizeof(((mjsCompiler*)0)->usethread));
  printf("mjsCompiler.fusestatic %d %d\n", (int)offsetof(mjsCompiler, fusestatic),
         (int)sizeof(((mjsCompiler*)0)->fusestatic));
  printf("mjsCompiler.inertiafromgeom %d %d\n", (int)offsetof(mjsCompiler, inertiafromgeom),
         (int)sizeof(((mjsCompiler*)0)->inertiafromgeom));
  printf("mjsCompiler.inertiagrouprange %d %d\n", (int)offsetof(mjsCompiler, inertiagrouprange),
         (int)sizeof(((mjsCompiler*)0)->inertiagrouprange));
  printf("mjsCompiler.saveinertial %d %d\n", (int)offsetof(mjsCompiler, saveinertial),
         (int)sizeof(((mjsCompiler*)0)->saveinertial));
  printf("mjsCompiler.alignfree %d %d\n", (int)offsetof(mjsCompiler, alignfree),
         (int)sizeof(((mjsCompiler*)0)->alignfree));
  printf("mjsCompiler.conflict %d %d\n", (int)offsetof(mjsCompiler, conflict),
         (int)sizeof(((mjsCompiler*)0)->conflict));
  printf("mjsCompiler.LRopt %d %d\n", (int)offsetof(mjsCompiler, LRopt),
         (int)sizeof(((mjsCompiler*)0)->LRopt));
  printf("mjsCompiler.meshdir %d %d\n", (int)offsetof(mjsCompiler, meshdir),
         (int)sizeof(((mjsCompiler*)0)->meshdir));
  printf("mjsCompiler.texturedir %d %d\n", (int)offsetof(mjsCompiler, texturedir),
         (int)sizeof(((mjsCompiler*)0)->texturedir));
  printf("mjsCompiler.authored %d %d\n", (int)offsetof(mjsCompiler, authored),
         (int)sizeof(((mjsCompiler*)0)->authored));
  printf("mjsAuthored size %d\n", (int)sizeof(mjsAuthored));
  printf("mjsAuthored.option %d %d\n", (int)offsetof(mjsAuthored, option),
         (int)sizeof(((mjsAuthored*)0)->option));
  printf("mjsAuthored.disableflags %d %d\n", (int)offsetof(mjsAuthored, disableflags),
         (int)sizeof(((mjsAuthored*)0)->disableflags));
  printf("mjsAuthored.enableflags %d %d\n", (int)offsetof(mjsAuthored, enableflags),
         (int)sizeof(((mjsAuthored*)0)->enableflags));
  printf("mjsAuthored.disableactuator %d %d\n", (int)offsetof(mjsAuthored, disableactuator),
         (int)sizeof(((mjsAuthored*)0)->disableactuator));
  printf("mjsAuthored.visual_global %d %d\n", (int)offsetof(mjsAuthored, visual_global),
         (int)sizeof(((mjsAuthored*)0)->visual_global));
  printf("mjsAuthored.visual_quality %d %d\n", (int)offsetof(mjsAuthored, visual_quality),
         (int)sizeof(((mjsAuthored*)0)->visual_quality));
  printf("mjsAuthored.visual_headlight %d %d\n", (int)offsetof(mjsAuthored, visual_headlight),
         (int)sizeof(((mjsAuthored*)0)->visual_headlight));
  printf("mjsAuthored.visual_map %d %d\n", (int)offsetof(mjsAuthored, visual_map),
         (int)sizeof(((mjsAuthored*)0)->visual_map));
  printf("mjsAuthored.visual_scale %d %d\n", (int)offsetof(mjsAuthored, visual_scale),
         (int)sizeof(((mjsAuthored*)0)->visual_scale));
  printf("mjsAuthored.visual_rgba %d %d\n", (int)offsetof(mjsAuthored, visual_rgba),
         (int)sizeof(((mjsAuthored*)0)->visual_rgba));
  printf("mjSpec size without option %d\n", (int)(sizeof(mjSpec) - sizeof(mjOption)));
  printf("mjSpec.element %d %d\n", (int)offsetof(mjSpec, element),
         (int)sizeof(((mjSpec*)0)->element));
  printf("mjSpec.modelname %d %d\n", (int)offsetof(mjSpec, modelname),
         (int)sizeof(((mjSpec*)0)->modelname));
  printf("mjSpec.compiler %d %d\n", (int)offsetof(mjSpec, compiler),
         (int)sizeof(((mjSpec*)0)->compiler));
  printf("mjSpec.strippath %d %d\n", (int)offsetof(mjSpec, strippath),
         (int)sizeof(((mjSpec*)0)->strippath));
  printf("mjSpec.option (layout checked with mjOption elsewhere)\n");
  printf("mjSpec.visual visual%+d %d\n", (int)(offsetof(mjSpec, visual) - offsetof(mjSpec, visual)),
         (int)sizeof(((mjSpec*)0)->visual));
  printf("mjSpec.stat visual%+d %d\n", (int)(offsetof(mjSpec, stat) - offsetof(mjSpec, visual)),
         (int)sizeof(((mjSpec*)0)->stat));
  printf("mjSpec.memory visual%+d %d\n", (int)(offsetof(mjSpec, memory) - offsetof(mjSpec, visual)),
         (int)sizeof(((mjSpec*)0)->memory));
  printf("mjSpec.nemax visual%+d %d\n", (int)(offsetof(mjSpec, nemax) - offsetof(mjSpec, visual)),
         (int)sizeof(((mjSpec*)0)->nemax));
  printf("mjSpec.nuserdata visual%+d %d\n",
         (int)(offsetof(mjSpec, nuserdata) - offsetof(mjSpec, visual)),
         (int)sizeof(((mjSpec*)0)->nuserdata));
  printf("mjSpec.nuser_body visual%+d %d\n",
         (int)(offsetof(mjSpec, nuser_body) - offsetof(mjSpec, visual)),
         (int)sizeof(((mjSpec*)0)->nuser_body));
  printf("mjSpec.nuser_jnt visual%+d %d\n",
         (int)(offsetof(mjSpec, nuser_jnt) - offsetof(mjSpec, visual)),
         (int)sizeof(((mjSpec*)0)->nuser_jnt));
  printf("mjSpec.nuser_geom visual%+d %d\n",
         (int)(offsetof(mjSpec, nuser_geom) - offsetof(mjSpec, visual)),
         (int)sizeof(((mjSpec*)0)->nuser_geom));
  printf("mjSpec.nuser_site visual%+d %d\n",
         (int)(offsetof(mjSpec, nuser_site) - offsetof(mjSpec, visual)),
         (int)sizeof(((mjSpec*)0)->nuser_site));
  printf("mjSpec.nuser_cam visual%+d %d\n",
         (int)(offsetof(mjSpec, nuser_cam) - offsetof(mjSpec, visual)),
         (int)sizeof(((mjSpec*)0)->nuser_cam));
  printf("mjSpec.nuser_tendon visual%+d %d\n",
         (int)(offsetof(mjSpec, nuser_tendon) - offsetof(mjSpec, visual)),
         (int)sizeof(((mjSpec*)0)->nuser_tendon));
  printf("mjSpec.nuser_actuator visual%+d %d\n",
         (int)(offsetof(mjSpec, nuser_actuator) - offsetof(mjSpec, visual)),
         (int)sizeof(((mjSpec*)0)->nuser_actuator));
  printf("mjSpec.nuser_sensor visual%+d %d\n",
         (int)(offsetof(mjSpec, nuser_sensor) - offsetof(mjSpec, visual)),
         (int)sizeof(((mjSpec*)0)->nuser_sensor));
  printf("mjSpec.nkey visual%+d %d\n", (int)(offsetof(mjSpec, nkey) - offsetof(mjSpec, visual)),
         (int)sizeof(((mjSpec*)0)->nkey));
  printf("mjSpec.njmax visual%+d %d\n", (int)(offsetof(mjSpec, njmax) - offsetof(mjSpec, visual)),
         (int)sizeof(((mjSpec*)0)->njmax));
  printf("mjSpec.nconmax visual%+d %d\n",
         (int)(offsetof(mjSpec, nconmax) - offsetof(mjSpec, visual)),
         (int)sizeof(((mjSpec*)0)->nconmax));
  printf("mjSpec.nstack visual%+d %d\n", (int)(offsetof(mjSpec, nstack) - offsetof(mjSpec, visual)),
         (int)sizeof(((mjSpec*)0)->nstack));
  printf("mjSpec.comment visual%+d %d\n",
         (int)(offsetof(mjSpec, comment) - offsetof(mjSpec, visual)),
         (int)sizeof(((mjSpec*)0)->comment));
  printf("mjSpec.modelfiledir visual%+d %d\n",
         (int)(offsetof(mjSpec, modelfiledir) - offsetof(mjSpec, visual)),
         (int)sizeof(((mjSpec*)0)->modelfiledir));
  printf("mjSpec.hasImplicitPluginElem visual%+d %d\n",
         (int)(offsetof(mjSpec, hasImplicitPluginElem) - offsetof(mjSpec, visual)),
         (int)sizeof(((mjSpec*)0)->hasImplicitPluginElem));
  printf("mjSpec.authored visual%+d %d\n",
         (int)(offsetof(mjSpec, authored) - offsetof(mjSpec, visual)),
         (int)sizeof(((mjSpec*)0)->authored));
  printf("mjsOrientation size %d\n", (int)sizeof(mjsOrientation));
  printf("mjsOrientation.type %d %d\n", (int)offsetof(mjsOrientation, type),
         (int)sizeof(((mjsOrientation*)0)->type));
  printf("mjsOrientation.axisangle %d %d\n", (int)offsetof(mjsOrientation, axisangle),
         (int)sizeof(((mjsOrientation*)0)->axisangle));
  printf("mjsOrientation.xyaxes %d %d\n", (int)offsetof(mjsOrientation, xyaxes),
         (int)sizeof(((mjsOrientation*)0)->xyaxes));
  printf("mjsOrientation.zaxis %d %d\n", (int)offsetof(mjsOrientation, zaxis),
         (int)sizeof(((mjsOrientation*)0)->zaxis));
  printf("mjsOrientation.euler %d %d\n", (int)offsetof(mjsOrientation, euler),
         (int)sizeof(((mjsOrientation*)0)->euler));
  printf("mjsPlugin size %d\n", (int)sizeof(mjsPlugin));
  printf("mjsPlugin.element %d %d\n", (int)offsetof(mjsPlugin, element),
         (int)sizeof(((mjsPlugin*)0)->element));
  printf("mjsPlugin.name %d %d\n", (int)offsetof(mjsPlugin, name),
         (int)sizeof(((mjsPlugin*)0)->name));
  printf("mjsPlugin.plugin_name %d %d\n", (int)offsetof(mjsPlugin, plugin_name),
         (int)sizeof(((mjsPlugin*)0)->plugin_name));
  printf("mjsPlugin.active %d %d\n", (int)offsetof(mjsPlugin, active),
         (int)sizeof(((mjsPlugin*)0)->active));
  printf("mjsPlugin.info %d %d\n", (int)offsetof(mjsPlugin, info),
         (int)sizeof(((mjsPlugin*)0)->info));
  printf("mjsBody size %d\n", (int)sizeof(mjsBody));
  printf("mjsBody.element %d %d\n", (int)offsetof(mjsBody, element),
         (int)sizeof(((mjsBody*)0)->element));
  printf("mjsBody.childclass %d %d\n", (int)offsetof(mjsBody, childclass),
         (int)sizeof(((mjsBody*)0)->childclass));
  printf("mjsBody.pos %d %d\n", (int)offsetof(mjsBody, pos), (int)sizeof(((mjsBody*)0)->pos));
  printf("mjsBody.quat %d %d\n", (int)offsetof(mjsBody, quat), (int)sizeof(((mjsBody*)0)->quat));
  printf("mjsBody.alt %d %d\n", (int)offsetof(mjsBody, alt), (int)sizeof(((mjsBody*)0)->alt));
  printf("mjsBody.mass %d %d\n", (int)offsetof(mjsBody, mass), (int)sizeof(((mjsBody*)0)->mass));
  printf("mjsBody.ipos %d %d\n", (int)offsetof(mjsBody, ipos), (int)sizeof(((mjsBody*)0)->ipos));
  printf("mjsBody.iquat %d %d\n", (int)offsetof(mjsBody, iquat), (int)sizeof(((mjsBody*)0)->iquat));
  printf("mjsBody.inertia %d %d\n", (int)offsetof(mjsBody, inertia),
         (int)sizeof(((mjsBody*)0)->inertia));
  printf("mjsBody.ialt %d %d\n", (int)offsetof(mjsBody, ialt), (int)sizeof(((mjsBody*)0)->ialt));
  printf("mjsBody.fullinertia %d %d\n", (int)offsetof(mjsBody, fullinertia),
         (int)sizeof(((mjsBody*)0)->fullinertia));
  printf("mjsBody.mocap %d %d\n", (int)offsetof(mjsBody, mocap), (int)sizeof(((mjsBody*)0)->mocap));
  printf("mjsBody.gravcomp %d %d\n", (int)offsetof(mjsBody, gravcomp),
         (int)sizeof(((mjsBody*)0)->gravcomp));
  printf("mjsBody.sleep %d %d\n", (int)offsetof(mjsBody, sleep), (int)sizeof(((mjsBody*)0)->sleep));
  printf("mjsBody.simple %d %d\n", (int)offsetof(mjsBody, simple),
         (int)sizeof(((mjsBody*)0)->simple));
  printf("mjsBody.userdata %d %d\n", (int)offsetof(mjsBody, userdata),
         (int)sizeof(((mjsBody*)0)->userdata));
  printf("mjsBody.explicitinertial %d %d\n", (int)offsetof(mjsBody, explicitinertial),
         (int)sizeof(((mjsBody*)0)->explicitinertial));
  printf("mjsBody.plugin %d %d\n", (int)offsetof(mjsBody, plugin),
         (int)sizeof(((mjsBody*)0)->plugin));
  printf("mjsBody.info %d %d\n", (int)offsetof(mjsBody, info), (int)sizeof(((mjsBody*)0)->info));
  printf("mjsFrame size %d\n", (int)sizeof(mjsFrame));
  printf("mjsFrame.element %d %d\n", (int)offsetof(mjsFrame, element),
         (int)sizeof(((mjsFrame*)0)->element));
  printf("mjsFrame.childclass %d %d\n", (int)offsetof(mjsFrame, childclass),
         (int)sizeof(((mjsFrame*)0)->childclass));
  printf("mjsFrame.pos %d %d\n", (int)offsetof(mjsFrame, pos), (int)sizeof(((mjsFrame*)0)->pos));
  printf("mjsFrame.quat %d %d\n", (int)offsetof(mjsFrame, quat), (int)sizeof(((mjsFrame*)0)->quat));
  printf("mjsFrame.alt %d %d\n", (int)offsetof(mjsFrame, alt), (int)sizeof(((mjsFrame*)0)->alt));
  printf("mjsFrame.info %d %d\n", (int)offsetof(mjsFrame, info), (int)sizeof(((mjsFrame*)0)->info));
  printf("mjsJoint size %d\n", (int)sizeof(mjsJoint));
  printf("mjsJoint.element %d %d\n", (int)offsetof(mjsJoint, element),
         (int)sizeof(((mjsJoint*)0)->element));
  printf("mjsJoint.type %d %d\n", (int)offsetof(mjsJoint, type), (int)sizeof(((mjsJoint*)0)->type));
  printf("mjsJoint.pos %d %d\n", (int)offsetof(mjsJoint, pos), (int)sizeof(((mjsJoint*)0)->pos));
  printf("mjsJoint.axis %d %d\n", (int)offsetof(mjsJoint, axis), (int)sizeof(((mjsJoint*)0)->axis));
  printf("mjsJoint.ref %d %d\n", (int)offsetof(mjsJoint, ref), (int)sizeof(((mjsJoint*)0)->ref));
  printf("mjsJoint.align %d %d\n", (int)offsetof(mjsJoint, align),
         (int)sizeof(((mjsJoint*)0)->align));
  printf("mjsJoint.stiffness %d %d\n", (int)offsetof(mjsJoint, stiffness),
         (int)sizeof(((mjsJoint*)0)->stiffness));
  printf("mjsJoint.springref %d %d\n", (int)offsetof(mjsJoint, springref),
         (int)sizeof(((mjsJoint*)0)->springref));
  printf("mjsJoint.springdamper %d %d\n", (int)offsetof(mjsJoint, springdamper),
         (int)sizeof(((mjsJoint*)0)->springdamper));
  printf("mjsJoint.limited %d %d\n", (int)offsetof(mjsJoint, limited),
         (int)sizeof(((mjsJoint*)0)->limited));
  printf("mjsJoint.range %d %d\n", (int)offsetof(mjsJoint, range),
         (int)sizeof(((mjsJoint*)0)->range));
  printf("mjsJoint.margin %d %d\n", (int)offsetof(mjsJoint, margin),
         (int)sizeof(((mjsJoint*)0)->margin));
  printf("mjsJoint.solref_limit %d %d\n", (int)offsetof(mjsJoint, solref_limit),
         (int)sizeof(((mjsJoint*)0)->solref_limit));
  printf("mjsJoint.solimp_limit %d %d\n", (int)offsetof(mjsJoint, solimp_limit),
         (int)sizeof(((mjsJoint*)0)->solimp_limit));
  printf("mjsJoint.actfrclimited %d %d\n", (int)offsetof(mjsJoint, actfrclimited),
         (int)sizeof(((mjsJoint*)0)->actfrclimited));
  printf("mjsJoint.actfrcrange %d %d\n", (int)offsetof(mjsJoint, actfrcrange),
         (int)sizeof(((mjsJoint*)0)->actfrcrange));
  printf("mjsJoint.armature %d %d\n", (int)offsetof(mjsJoint, armature),
         (int)sizeof(((mjsJoint*)0)->armature));
  printf("mjsJoint.damping %d %d\n", (int)offsetof(mjsJoint, damping),
         (int)sizeof(((mjsJoint*)0)->damping));
  printf("mjsJoint.frictionloss %d %d\n", (int)offsetof(mjsJoint, frictionloss),
         (int)sizeof(((mjsJoint*)0)->frictionloss));
  printf("mjsJoint.solref_friction %d %d\n", (int)offsetof(mjsJoint, solref_friction),
         (int)sizeof(((mjsJoint*)0)->solref_friction));
  printf("mjsJoint.solimp_friction %d %d\n", (int)offsetof(mjsJoint, solimp_friction),
         (int)sizeof(((mjsJoint*)0)->solimp_friction));
  printf("mjsJoint.group %d %d\n", (int)offsetof(mjsJoint, group),
         (int)sizeof(((mjsJoint*)0)->group));
  printf("mjsJoint.actgravcomp %d %d\n", (int)offsetof(mjsJoint, actgravcomp),
         (int)sizeof(((mjsJoint*)0)->actgravcomp));
  printf("mjsJoint.userdata %d %d\n", (int)offsetof(mjsJoint, userdata),
         (int)sizeof(((mjsJoint*)0)->userdata));
  printf("mjsJoint.info %d %d\n", (int)offsetof(mjsJoint, info), (int)sizeof(((mjsJoint*)0)->info));
  printf("mjsGeom size %d\n", (int)sizeof(mjsGeom));
  printf("mjsGeom.element %d %d\n", (int)offsetof(mjsGeom, element),
         (int)sizeof(((mjsGeom*)0)->element));
  printf("mjsGeom.type %d %d\n", (int)offsetof(mjsGeom, type), (int)sizeof(((mjsGeom*)0)->type));
  printf("mjsGeom.pos %d %d\n", (int)offsetof(mjsGeom, pos), (int)sizeof(((mjsGeom*)0)->pos));
  printf("mjsGeom.quat %d %d\n", (int)offsetof(mjsGeom, quat), (int)sizeof(((mjsGeom*)0)->quat));
  printf("mjsGeom.alt %d %d\n", (int)offsetof(mjsGeom, alt), (int)sizeof(((mjsGeom*)0)->alt));
  printf("mjsGeom.fromto %d %d\n", (int)offsetof(mjsGeom, fromto),
         (int)sizeof(((mjsGeom*)0)->fromto));
  printf("mjsGeom.size %d %d\n", (int)offsetof(mjsGeom, size), (int)sizeof(((mjsGeom*)0)->size));
  printf("mjsGeom.contype %d %d\n", (int)offsetof(mjsGeom, contype),
         (int)sizeof(((mjsGeom*)0)->contype));
  printf("mjsGeom.conaffinity %d %d\n", (int)offsetof(mjsGeom, conaffinity),
         (int)sizeof(((mjsGeom*)0)->conaffinity));
  printf("mjsGeom.condim %d %d\n", (int)offsetof(mjsGeom, condim),
         (int)sizeof(((mjsGeom*)0)->condim));
  printf("mjsGeom.priority %d %d\n", (int)offsetof(mjsGeom, priority),
         (int)sizeof(((mjsGeom*)0)->priority));
  printf("mjsGeom.friction %d %d\n", (int)offsetof(mjsGeom, friction),
         (int)sizeof(((mjsGeom*)0)->friction));
  printf("mjsGeom.solmix %d %d\n", (int)offsetof(mjsGeom, solmix),
         (int)sizeof(((mjsGeom*)0)->solmix));
  printf("mjsGeom.solref %d %d\n", (int)offsetof(mjsGeom, solref),
         (int)sizeof(((mjsGeom*)0)->solref));
  printf("mjsGeom.solimp %d %d\n", (int)offsetof(mjsGeom, solimp),
         (int)sizeof(((mjsGeom*)0)->solimp));
  printf("mjsGeom.margin %d %d\n", (int)offsetof(mjsGeom, margin),
         (int)sizeof(((mjsGeom*)0)->margin));
  printf("mjsGeom.gap %d %d\n", (int)offsetof(mjsGeom, gap), (int)sizeof(((mjsGeom*)0)->gap));
  printf("mjsGeom.surfacevel %d %d\n", (int)offsetof(mjsGeom, surfacevel),
         (int)sizeof(((mjsGeom*)0)->surfacevel));
  printf("mjsGeom.adhesion %d %d\n", (int)offsetof(mjsGeom, adhesion),
         (int)sizeof(((mjsGeom*)0)->adhesion));
  printf("mjsGeom.mass %d %d\n", (int)offsetof(mjsGeom, mass), (int)sizeof(((mjsGeom*)0)->mass));
  printf("mjsGeom.density %d %d\n", (int)offsetof(mjsGeom, density),
         (int)sizeof(((mjsGeom*)0)->density));
  printf("mjsGeom.typeinertia %d %d\n", (int)offsetof(mjsGeom, typeinertia),
         (int)sizeof(((mjsGeom*)0)->typeinertia));
  printf("mjsGeom.fluid_ellipsoid %d %d\n", (int)offsetof(mjsGeom, fluid_ellipsoid),
         (int)sizeof(((mjsGeom*)0)->fluid_ellipsoid));
  printf("mjsGeom.fluid_coefs %d %d\n", (int)offsetof(mjsGeom, fluid_coefs),
         (int)sizeof(((mjsGeom*)0)->fluid_coefs));
  printf("mjsGeom.material %d %d\n", (int)offsetof(mjsGeom, material),
         (int)sizeof(((mjsGeom*)0)->material));
  printf("mjsGeom.rgba %d %d\n", (int)offsetof(mjsGeom, rgba), (int)sizeof(((mjsGeom*)0)->rgba));
  printf("mjsGeom.group %d %d\n", (int)offsetof(mjsGeom, group), (int)sizeof(((mjsGeom*)0)->group));
  printf("mjsGeom.hfieldname %d %d\n", (int)offsetof(mjsGeom, hfieldname),
         (int)sizeof(((mjsGeom*)0)->hfieldname));
  printf("mjsGeom.meshname %d %d\n", (int)offsetof(mjsGeom, meshname),
         (int)sizeof(((mjsGeom*)0)->meshname));
  printf("mjsGeom.fitscale %d %d\n", (int)offsetof(mjsGeom, fitscale),
         (int)sizeof(((mjsGeom*)0)->fitscale));
  printf("mjsGeom.userdata %d %d\n", (int)offsetof(mjsGeom, userdata),
         (int)sizeof(((mjsGeom*)0)->userdata));
  printf("mjsGeom.plugin %d %d\n", (int)offsetof(mjsGeom, plugin),
         (int)sizeof(((mjsGeom*)0)->plugin));
  printf("mjsGeom.info %d %d\n", (int)offsetof(mjsGeom, info), (int)sizeof(((mjsGeom*)0)->info));
  printf("mjsSite size %d\n", (int)sizeof(mjsSite));
  printf("mjsSite.element %d %d\n", (int)offsetof(mjsSite, element),
         (int)sizeof(((mjsSite*)0)->element));
  printf("mjsSite.pos %d %d\n", (int)offsetof(mjsSite, pos), (int)sizeof(((mjsSite*)0)->pos));
  printf("mjsSite.quat %d %d\n", (int)offsetof(mjsSite, quat), (int)sizeof(((mjsSite*)0)->quat));
  printf("mjsSite.alt %d %d\n", (int)offsetof(mjsSite, alt), (int)sizeof(((mjsSite*)0)->alt));
  printf("mjsSite.fromto %d %d\n", (int)offsetof(mjsSite, fromto),
         (int)sizeof(((mjsSite*)0)->fromto));
  printf("mjsSite.size %d %d\n", (int)offsetof(mjsSite, size), (int)sizeof(((mjsSite*)0)->size));
  printf("mjsSite.type %d %d\n", (int)offsetof(mjsSite, type), (int)sizeof(((mjsSite*)0)->type));
  printf("mjsSite.material %d %d\n", (int)offsetof(mjsSite, material),
         (int)sizeof(((mjsSite*)0)->material));
  printf("mjsSite.group %d %d\n", (int)offsetof(mjsSite, group), (int)sizeof(((mjsSite*)0)->group));
  printf("mjsSite.rgba %d %d\n", (int)offsetof(mjsSite, rgba), (int)sizeof(((mjsSite*)0)->rgba));
  printf("mjsSite.meshname %d %d\n", (int)offsetof(mjsSite, meshname),
         (int)sizeof(((mjsSite*)0)->meshname));
  printf("mjsSite.userdata %d %d\n", (int)offsetof(mjsSite, userdata),
         (int)sizeof(((mjsSite*)0)->userdata));
  printf("mjsSite.info %d %d\n", (int)offsetof(mjsSite, info), (int)sizeof(((mjsSite*)0)->info));
  printf("mjsCamera size %d\n", (int)sizeof(mjsCamera));
  printf("mjsCamera.element %d %d\n", (int)offsetof(mjsCamera, element),
         (int)sizeof(((mjsCamera*)0)->element));
  printf("mjsCamera.pos %d %d\n", (int)offsetof(mjsCamera, pos), (int)sizeof(((mjsCamera*)0)->pos));
  printf("mjsCamera.quat %d %d\n", (int)offsetof(mjsCamera, quat),
         (int)sizeof(((mjsCamera*)0)->quat));
  printf("mjsCamera.alt %d %d\n", (int)offsetof(mjsCamera, alt), (int)sizeof(((mjsCamera*)0)->alt));
  printf("mjsCamera.mode %d %d\n", (int)offsetof(mjsCamera, mode),
         (int)sizeof(((mjsCamera*)0)->mode));
  printf("mjsCamera.targetbody %d %d\n", (int)offsetof(mjsCamera, targetbody),
         (int)sizeof(((mjsCamera*)0)->targetbody));
  printf("mjsCamera.proj %d %d\n", (int)offsetof(mjsCamera, proj),
         (int)sizeof(((mjsCamera*)0)->proj));
  printf("mjsCamera.resolution %d %d\n", (int)offsetof(mjsCamera, resolution),
         (int)sizeof(((mjsCamera*)0)->resolution));
  printf("mjsCamera.output %d %d\n", (int)offsetof(mjsCamera, output),
         (int)sizeof(((mjsCamera*)0)->output));
  printf("mjsCamera.fovy %d %d\n", (int)offsetof(mjsCamera, fovy),
         (int)sizeof(((mjsCamera*)0)->fovy));
  printf("mjsCamera.ipd %d %d\n", (int)offsetof(mjsCamera, ipd), (int)sizeof(((mjsCamera*)0)->ipd));
  printf("mjsCamera.intrinsic %d %d\n", (int)offsetof(mjsCamera, intrinsic),
         (int)sizeof(((mjsCamera*)0)->intrinsic));
  printf("mjsCamera.sensor_size %d %d\n", (int)offsetof(mjsCamera, sensor_size),
         (int)sizeof(((mjsCamera*)0)->sensor_size));
  printf("mjsCamera.focal_length %d %d\n", (int)offsetof(mjsCamera, focal_length),
         (int)sizeof(((mjsCamera*)0)->focal_length));
  printf("mjsCamera.focal_pixel %d %d\n", (int)offsetof(mjsCamera, focal_pixel),
         (int)sizeof(((mjsCamera*)0)->focal_pixel));
  printf("mjsCamera.principal_length %d %d\n", (int)offsetof(mjsCamera, principal_length),
         (int)sizeof(((mjsCamera*)0)->principal_length));
  printf("mjsCamera.principal_pixel %d %d\n", (int)offsetof(mjsCamera, principal_pixel),
         (int)sizeof(((mjsCamera*)0)->principal_pixel));
  printf("mjsCamera.userdata %d %d\n", (int)offsetof(mjsCamera, userdata),
         (int)sizeof(((mjsCamera*)0)->userdata));
  printf("mjsCamera.info %d %d\n", (int)offsetof(mjsCamera, info),
         (int)sizeof(((mjsCamera*)0)->info));
  printf("mjsLight size %d\n", (int)sizeof(mjsLight));
  printf("mjsLight.element %d %d\n", (int)offsetof(mjsLight, element),
         (int)sizeof(((mjsLight*)0)->element));
  printf("mjsLight.pos %d %d\n", (int)offsetof(mjsLight, pos), (int)sizeof(((mjsLight*)0)->pos));
  printf("mjsLight.dir %d %d\n", (int)offsetof(mjsLight, dir), (int)sizeof(((mjsLight*)0)->dir));
  printf("mjsLight.mode %d %d\n", (int)offsetof(mjsLight, mode), (int)sizeof(((mjsLight*)0)->mode));
  printf("mjsLight.targetbody %d %d\n", (int)offsetof(mjsLight, targetbody),
         (int)sizeof(((mjsLight*)0)->targetbody));
  printf("mjsLight.active %d %d\n", (int)offsetof(mjsLight, active),
         (int)sizeof(((mjsLight*)0)->active));
  printf("mjsLight.type %d %d\n", (int)offsetof(mjsLight, type), (int)sizeof(((mjsLight*)0)->type));
  printf("mjsLight.texture %d %d\n", (int)offsetof(mjsLight, texture),
         (int)sizeof(((mjsLight*)0)->texture));
  printf("mjsLight.castshadow %d %d\n", (int)offsetof(mjsLight, castshadow),
         (int)sizeof(((mjsLight*)0)->castshadow));
  printf("mjsLight.bulbradius %d %d\n", (int)offsetof(mjsLight, bulbradius),
         (int)sizeof(((mjsLight*)0)->bulbradius));
  printf("mjsLight.intensity %d %d\n", (int)offsetof(mjsLight, intensity),
         (int)sizeof(((mjsLight*)0)->intensity));
  printf("mjsLight.range %d %d\n", (int)offsetof(mjsLight, range),
         (int)sizeof(((mjsLight*)0)->range));
  printf("mjsLight.attenuation %d %d\n", (int)offsetof(mjsLight, attenuation),
         (int)sizeof(((mjsLight*)0)->attenuation));
  printf("mjsLight.cutoff %d %d\n", (int)offsetof(mjsLight, cutoff),
         (int)sizeof(((mjsLight*)0)->cutoff));
  printf("mjsLight.softness %d %d\n", (int)offsetof(mjsLight, softness),
         (int)sizeof(((mjsLight*)0)->softness));
  printf("mjsLight.exponent %d %d\n", (int)offsetof(mjsLight, exponent),
         (int)sizeof(((mjsLight*)0)->exponent));
  printf("mjsLight.ambient %d %d\n", (int)offsetof(mjsLight, ambient),
         (int)sizeof(((mjsLight*)0)->ambient));
  printf("mjsLight.diffuse %d %d\n", (int)offsetof(mjsLight, diffuse),
         (int)sizeof(((mjsLight*)0)->diffuse));
  printf("mjsLight.specular %d %d\n", (int)offsetof(mjsLight, specular),
         (int)sizeof(((mjsLight*)0)->specular));
  printf("mjsLight.info %d %d\n", (int)offsetof(mjsLight, info), (int)sizeof(((mjsLight*)0)->info));
  printf("mjsFlex size %d\n", (int)sizeof(mjsFlex));
  printf("mjsFlex.element %d %d\n", (int)offsetof(mjsFlex, element),
         (int)sizeof(((mjsFlex*)0)->element));
  printf("mjsFlex.contype %d %d\n", (int)offsetof(mjsFlex, contype),
         (int)sizeof(((mjsFlex*)0)->contype));
  printf("mjsFlex.conaffinity %d %d\n", (int)offsetof(mjsFlex, conaffinity),
         (int)sizeof(((mjsFlex*)0)->conaffinity));
  printf("mjsFlex.condim %d %d\n", (int)offsetof(mjsFlex, condim),
         (int)sizeof(((mjsFlex*)0)->condim));
  printf("mjsFlex.priority %d %d\n", (int)offsetof(mjsFlex, priority),
         (int)sizeof(((mjsFlex*)0)->priority));
  printf("mjsFlex.friction %d %d\n", (int)offsetof(mjsFlex, friction),
         (int)sizeof(((mjsFlex*)0)->friction));
  printf("mjsFlex.solmix %d %d\n", (int)offsetof(mjsFlex, solmix),
         (int)sizeof(((mjsFlex*)0)->solmix));
  printf("mjsFlex.solref %d %d\n", (int)offsetof(mjsFlex, solref),
         (int)sizeof(((mjsFlex*)0)->solref));
  printf("mjsFlex.solimp %d %d\n", (int)offsetof(mjsFlex, solimp),
         (int)sizeof(((mjsFlex*)0)->solimp));
  printf("mjsFlex.margin %d %d\n", (int)offsetof(mjsFlex, margin),
         (int)sizeof(((mjsFlex*)0)->margin));
  printf("mjsFlex.gap %d %d\n", (int)offsetof(mjsFlex, gap), (int)sizeof(((mjsFlex*)0)->gap));
  printf("mjsFlex.dim %d %d\n", (int)offsetof(mjsFlex, dim), (int)sizeof(((mjsFlex*)0)->dim));
  printf("mjsFlex.radius %d %d\n", (int)offsetof(mjsFlex, radius),
         (int)sizeof(((mjsFlex*)0)->radius));
  printf("mjsFlex.size %d %d\n", (int)offsetof(mjsFlex, size), (int)sizeof(((mjsFlex*)0)->size));
  printf("mjsFlex.internal %d %d\n", (int)offsetof(mjsFlex, internal),
         (int)sizeof(((mjsFlex*)0)->internal));
  printf("mjsFlex.flatskin %d %d\n", (int)offsetof(mjsFlex, flatskin),
         (int)sizeof(((mjsFlex*)0)->flatskin));
  printf("mjsFlex.selfcollide %d %d\n", (int)offsetof(mjsFlex, selfcollide),
         (int)sizeof(((mjsFlex*)0)->selfcollide));
  printf("mjsFlex.passive %d %d\n", (int)offsetof(mjsFlex, passive),
         (int)sizeof(((mjsFlex*)0)->passive));
  printf("mjsFlex.activelayers %d %d\n", (int)offsetof(mjsFlex, activelayers),
         (int)sizeof(((mjsFlex*)0)->activelayers));
  printf("mjsFlex.group %d %d\n", (int)offsetof(mjsFlex, group), (int)sizeof(((mjsFlex*)0)->group));
  printf("mjsFlex.edgestiffness %d %d\n", (int)offsetof(mjsFlex, edgestiffness),
         (int)sizeof(((mjsFlex*)0)->edgestiffness));
  printf("mjsFlex.edgedamping %d %d\n", (int)offsetof(mjsFlex, edgedamping),
         (int)sizeof(((mjsFlex*)0)->edgedamping));
  printf("mjsFlex.rgba %d %d\n", (int)offsetof(mjsFlex, rgba), (int)sizeof(((mjsFlex*)0)->rgba));
  printf("mjsFlex.material %d %d\n", (int)offsetof(mjsFlex, material),
         (int)sizeof(((mjsFlex*)0)->material));
  printf("mjsFlex.young %d %d\n", (int)offsetof(mjsFlex, young), (int)sizeof(((mjsFlex*)0)->young));
  printf("mjsFlex.poisson %d %d\n", (int)offsetof(mjsFlex, poisson),
         (int)sizeof(((mjsFlex*)0)->poisson));
  printf("mjsFlex.damping %d %d\n", (int)offsetof(mjsFlex, damping),
         (int)sizeof(((mjsFlex*)0)->damping));
  printf("mjsFlex.thickness %d %d\n", (int)offsetof(mjsFlex, thickness),
         (int)sizeof(((mjsFlex*)0)->thickness));
  printf("mjsFlex.elastic2d %d %d\n", (int)offsetof(mjsFlex, elastic2d),
         (int)sizeof(((mjsFlex*)0)->elastic2d));
  printf("mjsFlex.cellcount %d %d\n", (int)offsetof(mjsFlex, cellcount),
         (int)sizeof(((mjsFlex*)0)->cellcount));
  printf("mjsFlex.order %d %d\n", (int)offsetof(mjsFlex, order), (int)sizeof(((mjsFlex*)0)->order));
  printf("mjsFlex.nodebody %d %d\n", (int)offsetof(mjsFlex, nodebody),
         (int)sizeof(((mjsFlex*)0)->nodebody));
  printf("mjsFlex.vertbody %d %d\n", (int)offsetof(mjsFlex, vertbody),
         (int)sizeof(((mjsFlex*)0)->vertbody));
  printf("mjsFlex.node %d %d\n", (int)offsetof(mjsFlex, node), (int)sizeof(((mjsFlex*)0)->node));
  printf("mjsFlex.vert %d %d\n", (int)offsetof(mjsFlex, vert), (int)sizeof(((mjsFlex*)0)->vert));
  printf("mjsFlex.elem %d %d\n", (int)offsetof(mjsFlex, elem), (int)sizeof(((mjsFlex*)0)->elem));
  printf("mjsFlex.texcoord %d %d\n", (int)offsetof(mjsFlex, texcoord),
         (int)sizeof(((mjsFlex*)0)->texcoord));
  printf("mjsFlex.elemtexcoord %d %d\n", (int)offsetof(mjsFlex, elemtexcoord),
         (int)sizeof(((mjsFlex*)0)->elemtexcoord));
  printf("mjsFlex.info %d %d\n", (int)offsetof(mjsFlex, info), (int)sizeof(((mjsFlex*)0)->info));
  printf("mjsMesh size %d\n", (int)sizeof(mjsMesh));
  printf("mjsMesh.element %d %d\n", (int)offsetof(mjsMesh, element),
         (int)sizeof(((mjsMesh*)0)->element));
  printf("mjsMesh.content_type %d %d\n", (int)offsetof(mjsMesh, content_type),
         (int)sizeof(((mjsMesh*)0)->content_type));
  printf("mjsMesh.file %d %d\n", (int)offsetof(mjsMesh, file), (int)sizeof(((mjsMesh*)0)->file));
  printf("mjsMesh.refpos %d %d\n", (int)offsetof(mjsMesh, refpos),
         (int)sizeof(((mjsMesh*)0)->refpos));
  printf("mjsMesh.refquat %d %d\n", (int)offsetof(mjsMesh, refquat),
         (int)sizeof(((mjsMesh*)0)->refquat));
  printf("mjsMesh.scale %d %d\n", (int)offsetof(mjsMesh, scale), (int)sizeof(((mjsMesh*)0)->scale));
  printf("mjsMesh.inertia %d %d\n", (int)offsetof(mjsMesh, inertia),
         (int)sizeof(((mjsMesh*)0)->inertia));
  printf("mjsMesh.smoothnormal %d %d\n", (int)offsetof(mjsMesh, smoothnormal),
         (int)sizeof(((mjsMesh*)0)->smoothnormal));
  printf("mjsMesh.needsdf %d %d\n", (int)offsetof(mjsMesh, needsdf),
         (int)sizeof(((mjsMesh*)0)->needsdf));
  printf("mjsMesh.maxhullvert %d %d\n", (int)offsetof(mjsMesh, maxhullvert),
         (int)sizeof(((mjsMesh*)0)->maxhullvert));
  printf("mjsMesh.uservert %d %d\n", (int)offsetof(mjsMesh, uservert),
         (int)sizeof(((mjsMesh*)0)->uservert));
  printf("mjsMesh.usernormal %d %d\n", (int)offsetof(mjsMesh, usernormal),
         (int)sizeof(((mjsMesh*)0)->usernormal));
  printf("mjsMesh.usertexcoord %d %d\n", (int)offsetof(mjsMesh, usertexcoord),
         (int)sizeof(((mjsMesh*)0)->usertexcoord));
  printf("mjsMesh.userface %d %d\n", (int)offsetof(mjsMesh, userface),
         (int)sizeof(((mjsMesh*)0)->userface));
  printf("mjsMesh.userfacenormal %d %d\n", (int)offsetof(mjsMesh, userfacenormal),
         (int)sizeof(((mjsMesh*)0)->userfacenormal));
  printf("mjsMesh.userfacetexcoord %d %d\n", (int)offsetof(mjsMesh, userfacetexcoord),
         (int)sizeof(((mjsMesh*)0)->userfacetexcoord));
  printf("mjsMesh.plugin %d %d\n", (int)offsetof(mjsMesh, plugin),
         (int)sizeof(((mjsMesh*)0)->plugin));
  printf("mjsMesh.material %d %d\n", (int)offsetof(mjsMesh, material),
         (int)sizeof(((mjsMesh*)0)->material));
  printf("mjsMesh.octree_maxdepth %d %d\n", (int)offsetof(mjsMesh, octree_maxdepth),
         (int)sizeof(((mjsMesh*)0)->octree_maxdepth));
  printf("mjsMesh.info %d %d\n", (int)offsetof(mjsMesh, info), (int)sizeof(((mjsMesh*)0)->info));
  printf("mjsHField size %d\n", (int)sizeof(mjsHField));
  printf("mjsHField.element %d %d\n", (int)offsetof(mjsHField, element),
         (int)sizeof(((mjsHField*)0)->element));
  printf("mjsHField.content_type %d %d\n", (int)offsetof(mjsHField, content_type),
         (int)sizeof(((mjsHField*)0)->content_type));
  printf("mjsHField.file %d %d\n", (int)offsetof(mjsHField, file),
         (int)sizeof(((mjsHField*)0)->file));
  printf("mjsHField.size %d %d\n", (int)offsetof(mjsHField, size),
         (int)sizeof(((mjsHField*)0)->size));
  printf("mjsHField.nrow %d %d\n", (int)offsetof(mjsHField, nrow),
         (int)sizeof(((mjsHField*)0)->nrow));
  printf("mjsHField.ncol %d %d\n", (int)offsetof(mjsHField, ncol),
         (int)sizeof(((mjsHField*)0)->ncol));
  printf("mjsHField.userdata %d %d\n", (int)offsetof(mjsHField, userdata),
         (int)sizeof(((mjsHField*)0)->userdata));
  printf("mjsHField.info %d %d\n", (int)offsetof(mjsHField, info),
         (int)sizeof(((mjsHField*)0)->info));
  printf("mjsSkin size %d\n", (int)sizeof(mjsSkin));
  printf("mjsSkin.element %d %d\n", (int)offsetof(mjsSkin, element),
         (int)sizeof(((mjsSkin*)0)->element));
  printf("mjsSkin.file %d %d\n", (int)offsetof(mjsSkin, file), (int)sizeof(((mjsSkin*)0)->file));
  printf("mjsSkin.material %d %d\n", (int)offsetof(mjsSkin, material),
         (int)sizeof(((mjsSkin*)0)->material));
  printf("mjsSkin.rgba %d %d\n", (int)offsetof(mjsSkin, rgba), (int)sizeof(((mjsSkin*)0)->rgba));
  printf("mjsSkin.inflate %d %d\n", (int)offsetof(mjsSkin, inflate),
         (int)sizeof(((mjsSkin*)0)->inflate));
  printf("mjsSkin.group %d %d\n", (int)offsetof(mjsSkin, group), (int)sizeof(((mjsSkin*)0)->group));
  printf("mjsSkin.vert %d %d\n", (int)offsetof(mjsSkin, vert), (int)sizeof(((mjsSkin*)0)->vert));
  printf("mjsSkin.texcoord %d %d\n", (int)offsetof(mjsSkin, texcoord),
         (int)sizeof(((mjsSkin*)0)->texcoord));
  printf("mjsSkin.face %d %d\n", (int)offsetof(mjsSkin, face), (int)sizeof(((mjsSkin*)0)->face));
  printf("mjsSkin.bodyname %d %d\n", (int)offsetof(mjsSkin, bodyname),
         (int)sizeof(((mjsSkin*)0)->bodyname));
  printf("mjsSkin.bindpos %d %d\n", (int)offsetof(mjsSkin, bindpos),
         (int)sizeof(((mjsSkin*)0)->bindpos));
  printf("mjsSkin.bindquat %d %d\n", (int)offsetof(mjsSkin, bindquat),
         (int)sizeof(((mjsSkin*)0)->bindquat));
  printf("mjsSkin.vertid %d %d\n", (int)offsetof(mjsSkin, vertid),
         (int)sizeof(((mjsSkin*)0)->vertid));
  printf("mjsSkin.vertweight %d %d\n", (int)offsetof(mjsSkin, vertweight),
         (int)sizeof(((mjsSkin*)0)->vertweight));
  printf("mjsSkin.info %d %d\n", (int)offsetof(mjsSkin, info), (int)sizeof(((mjsSkin*)0)->info));
  printf("mjsTexture size %d\n", (int)sizeof(mjsTexture));
  printf("mjsTexture.element %d %d\n", (int)offsetof(mjsTexture, element),
         (int)sizeof(((mjsTexture*)0)->element));
  printf("mjsTexture.type %d %d\n", (int)offsetof(mjsTexture, type),
         (int)sizeof(((mjsTexture*)0)->type));
  printf("mjsTexture.colorspace %d %d\n", (int)offsetof(mjsTexture, colorspace),
         (int)sizeof(((mjsTexture*)0)->colorspace));
  printf("mjsTexture.builtin %d %d\n", (int)offsetof(mjsTexture, builtin),
         (int)sizeof(((mjsTexture*)0)->builtin));
  printf("mjsTexture.mark %d %d\n", (int)offsetof(mjsTexture, mark),
         (int)sizeof(((mjsTexture*)0)->mark));
  printf("mjsTexture.rgb1 %d %d\n", (int)offsetof(mjsTexture, rgb1),
         (int)sizeof(((mjsTexture*)0)->rgb1));
  printf("mjsTexture.rgb2 %d %d\n", (int)offsetof(mjsTexture, rgb2),
         (int)sizeof(((mjsTexture*)0)->rgb2));
  printf("mjsTexture.markrgb %d %d\n", (int)offsetof(mjsTexture, markrgb),
         (int)sizeof(((mjsTexture*)0)->markrgb));
  printf("mjsTexture.random %d %d\n", (int)offsetof(mjsTexture, random),
         (int)sizeof(((mjsTexture*)0)->random));
  printf("mjsTexture.height %d %d\n", (int)offsetof(mjsTexture, height),
         (int)sizeof(((mjsTexture*)0)->height));
  printf("mjsTexture.width %d %d\n", (int)offsetof(mjsTexture, width),
         (int)sizeof(((mjsTexture*)0)->width));
  printf("mjsTexture.nchannel %d %d\n", (int)offsetof(mjsTexture, nchannel),
         (int)sizeof(((mjsTexture*)0)->nchannel));
  printf("mjsTexture.content_type %d %d\n", (int)offsetof(mjsTexture, content_type),
         (int)sizeof(((mjsTexture*)0)->content_type));
  printf("mjsTexture.file %d %d\n", (int)offsetof(mjsTexture, file),
         (int)sizeof(((mjsTexture*)0)->file));
  printf("mjsTexture.gridsize %d %d\n", (int)offsetof(mjsTexture, gridsize),
         (int)sizeof(((mjsTexture*)0)->gridsize));
  printf("mjsTexture.gridlayout %d %d\n", (int)offsetof(mjsTexture, gridlayout),
         (int)sizeof(((mjsTexture*)0)->gridlayout));
  printf("mjsTexture.cubefiles %d %d\n", (int)offsetof(mjsTexture, cubefiles),
         (int)sizeof(((mjsTexture*)0)->cubefiles));
  printf("mjsTexture.data %d %d\n", (int)offsetof(mjsTexture, data),
         (int)sizeof(((mjsTexture*)0)->data));
  printf("mjsTexture.hflip %d %d\n", (int)offsetof(mjsTexture, hflip),
         (int)sizeof(((mjsTexture*)0)->hflip));
  printf("mjsTexture.vflip %d %d\n", (int)offsetof(mjsTexture, vflip),
         (int)sizeof(((mjsTexture*)0)->vflip));
  printf("mjsTexture.info %d %d\n", (int)offsetof(mjsTexture, info),
         (int)sizeof(((mjsTexture*)0)->info));
  printf("mjsMaterial size %d\n", (int)sizeof(mjsMaterial));
  printf("mjsMaterial.element %d %d\n", (int)offsetof(mjsMaterial, element),
         (int)sizeof(((mjsMaterial*)0)->element));
  printf("mjsMaterial.textures %d %d\n", (int)offsetof(mjsMaterial, textures),
         (int)sizeof(((mjsMaterial*)0)->textures));
  printf("mjsMaterial.texuniform %d %d\n", (int)offsetof(mjsMaterial, texuniform),
         (int)sizeof(((mjsMaterial*)0)->texuniform));
  printf("mjsMaterial.texrepeat %d %d\n", (int)offsetof(mjsMaterial, texrepeat),
         (int)sizeof(((mjsMaterial*)0)->texrepeat));
  printf("mjsMaterial.emission %d %d\n", (int)offsetof(mjsMaterial, emission),
         (int)sizeof(((mjsMaterial*)0)->emission));
  printf("mjsMaterial.specular %d %d\n", (int)offsetof(mjsMaterial, specular),
         (int)sizeof(((mjsMaterial*)0)->specular));
  printf("mjsMaterial.shininess %d %d\n", (int)offsetof(mjsMaterial, shininess),
         (int)sizeof(((mjsMaterial*)0)->shininess));
  printf("mjsMaterial.reflectance %d %d\n", (int)offsetof(mjsMaterial, reflectance),
         (int)sizeof(((mjsMaterial*)0)->reflectance));
  printf("mjsMaterial.metallic %d %d\n", (int)offsetof(mjsMaterial, metallic),
         (int)sizeof(((mjsMaterial*)0)->metallic));
  printf("mjsMaterial.roughness %d %d\n", (int)offsetof(mjsMaterial, roughness),
         (int)sizeof(((mjsMaterial*)0)->roughness));
  printf("mjsMaterial.rgba %d %d\n", (int)offsetof(mjsMaterial, rgba),
         (int)sizeof(((mjsMaterial*)0)->rgba));
  printf("mjsMaterial.info %d %d\n", (int)offsetof(mjsMaterial, info),
         (int)sizeof(((mjsMaterial*)0)->info));
  printf("mjsPair size %d\n", (int)sizeof(mjsPair));
  printf("mjsPair.element %d %d\n", (int)offsetof(mjsPair, element),
         (int)sizeof(((mjsPair*)0)->element));
  printf("mjsPair.geomname1 %d %d\n", (int)offsetof(mjsPair, geomname1),
         (int)sizeof(((mjsPair*)0)->geomname1));
  printf("mjsPair.geomname2 %d %d\n", (int)offsetof(mjsPair, geomname2),
         (int)sizeof(((mjsPair*)0)->geomname2));
  printf("mjsPair.condim %d %d\n", (int)offsetof(mjsPair, condim),
         (int)sizeof(((mjsPair*)0)->condim));
  printf("mjsPair.solref %d %d\n", (int)offsetof(mjsPair, solref),
         (int)sizeof(((mjsPair*)0)->solref));
  printf("mjsPair.solreffriction %d %d\n", (int)offsetof(mjsPair, solreffriction),
         (int)sizeof(((mjsPair*)0)->solreffriction));
  printf("mjsPair.solimp %d %d\n", (int)offsetof(mjsPair, solimp),
         (int)sizeof(((mjsPair*)0)->solimp));
  printf("mjsPair.margin %d %d\n", (int)offsetof(mjsPair, margin),
         (int)sizeof(((mjsPair*)0)->margin));
  printf("mjsPair.gap %d %d\n", (int)offsetof(mjsPair, gap), (int)sizeof(((mjsPair*)0)->gap));
  printf("mjsPair.adhesion %d %d\n", (int)offsetof(mjsPair, adhesion),
         (int)sizeof(((mjsPair*)0)->adhesion));
  printf("mjsPair.friction %d %d\n", (int)offsetof(mjsPair, friction),
         (int)sizeof(((mjsPair*)0)->friction));
  printf("mjsPair.info %d %d\n", (int)offsetof(mjsPair, info), (int)sizeof(((mjsPair*)0)->info));
  printf("mjsExclude size %d\n", (int)sizeof(mjsExclude));
  printf("mjsExclude.element %d %d\n", (int)offsetof(mjsExclude, element),
         (int)sizeof(((mjsExclude*)0)->element));
  printf("mjsExclude.bodyname1 %d %d\n", (int)offsetof(mjsExclude, bodyname1),
         (int)sizeof(((mjsExclude*)0)->bodyname1));
  printf("mjsExclude.bodyname2 %d %d\n", (int)offsetof(mjsExclude, bodyname2),
         (int)sizeof(((mjsExclude*)0)->bodyname2));
  printf("mjsExclude.info %d %d\n", (int)offsetof(mjsExclude, info),
         (int)sizeof(((mjsExclude*)0)->info));
  printf("mjsEquality size %d\n", (int)sizeof(mjsEquality));
  printf("mjsEquality.element %d %d\n", (int)offsetof(mjsEquality, element),
         (int)sizeof(((mjsEquality*)0)->element));
  printf("mjsEquality.type %d %d\n", (int)offsetof(mjsEquality, type),
         (int)sizeof(((mjsEquality*)0)->type));
  printf("mjsEquality.data %d %d\n", (int)offsetof(mjsEquality, data),
         (int)sizeof(((mjsEquality*)0)->data));
  printf("mjsEquality.active %d %d\n", (int)offsetof(mjsEquality, active),
         (int)sizeof(((mjsEquality*)0)->active));
  printf("mjsEquality.name1 %d %d\n", (int)offsetof(mjsEquality, name1),
         (int)sizeof(((mjsEquality*)0)->name1));
  printf("mjsEquality.name2 %d %d\n", (int)offsetof(mjsEquality, name2),
         (int)sizeof(((mjsEquality*)0)->name2));
  printf("mjsEquality.objtype %d %d\n", (int)offsetof(mjsEquality, objtype),
         (int)sizeof(((mjsEquality*)0)->objtype));
  printf("mjsEquality.solref %d %d\n", (int)offsetof(mjsEquality, solref),
         (int)sizeof(((mjsEquality*)0)->solref));
  printf("mjsEquality.solimp %d %d\n", (int)offsetof(mjsEquality, solimp),
         (int)sizeof(((mjsEquality*)0)->solimp));
  printf("mjsEquality.info %d %d\n", (int)offsetof(mjsEquality, info),
         (int)sizeof(((mjsEquality*)0)->info));
  printf("mjsTendon size %d\n", (int)sizeof(mjsTendon));
  printf("mjsTendon.element %d %d\n", (int)offsetof(mjsTendon, element),
         (int)sizeof(((mjsTendon*)0)->element));
  printf("mjsTendon.stiffness %d %d\n", (int)offsetof(mjsTendon, stiffness),
         (int)sizeof(((mjsTendon*)0)->stiffness));
  printf("mjsTendon.springlength %d %d\n", (int)offsetof(mjsTendon, springlength),
         (int)sizeof(((mjsTendon*)0)->springlength));
  printf("mjsTendon.damping %d %d\n", (int)offsetof(mjsTendon, damping),
         (int)sizeof(((mjsTendon*)0)->damping));
  printf("mjsTendon.frictionloss %d %d\n", (int)offsetof(mjsTendon, frictionloss),
         (int)sizeof(((mjsTendon*)0)->frictionloss));
  printf("mjsTendon.solref_friction %d %d\n", (int)offsetof(mjsTendon, solref_friction),
         (int)sizeof(((mjsTendon*)0)->solref_friction));
  printf("mjsTendon.solimp_friction %d %d\n", (int)offsetof(mjsTendon, solimp_friction),
         (int)sizeof(((mjsTendon*)0)->solimp_friction));
  printf("mjsTendon.armature %d %d\n", (int)offsetof(mjsTendon, armature),
         (int)sizeof(((mjsTendon*)0)->armature));
  printf("mjsTendon.limited %d %d\n", (int)offsetof(mjsTendon, limited),
         (int)sizeof(((mjsTendon*)0)->limited));
  printf("mjsTendon.actfrclimited %d %d\n", (int)offsetof(mjsTendon, actfrclimited),
         (int)sizeof(((mjsTendon*)0)->actfrclimited));
  printf("mjsTendon.range %d %d\n", (int)offsetof(mjsTendon, range),
         (int)sizeof(((mjsTendon*)0)->range));
  printf("mjsTendon.actfrcrange %d %d\n", (int)offsetof(mjsTendon, actfrcrange),
         (int)sizeof(((mjsTendon*)0)->actfrcrange));
  printf("mjsTendon.margin %d %d\n", (int)offsetof(mjsTendon, margin),
         (int)sizeof(((mjsTendon*)0)->margin));
  printf("mjsTendon.solref_limit %d %d\n", (int)offsetof(mjsTendon, solref_limit),
         (int)sizeof(((mjsTendon*)0)->solref_limit));
  printf("mjsTendon.solimp_limit %d %d\n", (int)offsetof(mjsTendon, solimp_limit),
         (int)sizeof(((mjsTendon*)0)->solimp_limit));
  printf("mjsTendon.material %d %d\n", (int)offsetof(mjsTendon, material),
         (int)sizeof(((mjsTendon*)0)->material));
  printf("mjsTendon.width %d %d\n", (int)offsetof(mjsTendon, width),
         (int)sizeof(((mjsTendon*)0)->width));
  printf("mjsTendon.rgba %d %d\n", (int)offsetof(mjsTendon, rgba),
         (int)sizeof(((mjsTendon*)0)->rgba));
  printf("mjsTendon.group %d %d\n", (int)offsetof(mjsTendon, group),
         (int)sizeof(((mjsTendon*)0)->group));
  printf("mjsTendon.userdata %d %d\n", (int)offsetof(mjsTendon, userdata),
         (int)sizeof(((mjsTendon*)0)->userdata));
  printf("mjsTendon.info %d %d\n", (int)offsetof(mjsTendon, info),
         (int)sizeof(((mjsTendon*)0)->info));
  printf("mjsWrap size %d\n", (int)sizeof(mjsWrap));
  printf("mjsWrap.element %d %d\n", (int)offsetof(mjsWrap, element),
         (int)sizeof(((mjsWrap*)0)->element));
  printf("mjsWrap.type %d %d\n", (int)offsetof(mjsWrap, type), (int)sizeof(((mjsWrap*)0)->type));
  printf("mjsWrap.info %d %d\n", (int)offsetof(mjsWrap, info), (int)sizeof(((mjsWrap*)0)->info));
  printf("mjsActuator size %d\n", (int)sizeof(mjsActuator));
  printf("mjsActuator.element %d %d\n", (int)offsetof(mjsActuator, element),
         (int)sizeof(((mjsActuator*)0)->element));
  printf("mjsActuator.gaintype %d %d\n", (int)offsetof(mjsActuator, gaintype),
         (int)sizeof(((mjsActuator*)0)->gaintype));
  printf("mjsActuator.gainprm %d %d\n", (int)offsetof(mjsActuator, gainprm),
         (int)sizeof(((mjsActuator*)0)->gainprm));
  printf("mjsActuator.biastype %d %d\n", (int)offsetof(mjsActuator, biastype),
         (int)sizeof(((mjsActuator*)0)->biastype));
  printf("mjsActuator.biasprm %d %d\n", (int)offsetof(mjsActuator, biasprm),
         (int)sizeof(((mjsActuator*)0)->biasprm));
  printf("mjsActuator.dyntype %d %d\n", (int)offsetof(mjsActuator, dyntype),
         (int)sizeof(((mjsActuator*)0)->dyntype));
  printf("mjsActuator.dynprm %d %d\n", (int)offsetof(mjsActuator, dynprm),
         (int)sizeof(((mjsActuator*)0)->dynprm));
  printf("mjsActuator.actdim %d %d\n", (int)offsetof(mjsActuator, actdim),
         (int)sizeof(((mjsActuator*)0)->actdim));
  printf("mjsActuator.ctrlspec %d %d\n", (int)offsetof(mjsActuator, ctrlspec),
         (int)sizeof(((mjsActuator*)0)->ctrlspec));
  printf("mjsActuator.velrange %d %d\n", (int)offsetof(mjsActuator, velrange),
         (int)sizeof(((mjsActuator*)0)->velrange));
  printf("mjsActuator.ffrange %d %d\n", (int)offsetof(mjsActuator, ffrange),
         (int)sizeof(((mjsActuator*)0)->ffrange));
  printf("mjsActuator.actearly %d %d\n", (int)offsetof(mjsActuator, actearly),
         (int)sizeof(((mjsActuator*)0)->actearly));
  printf("mjsActuator.trntype %d %d\n", (int)offsetof(mjsActuator, trntype),
         (int)sizeof(((mjsActuator*)0)->trntype));
  printf("mjsActuator.gear %d %d\n", (int)offsetof(mjsActuator, gear),
         (int)sizeof(((mjsActuator*)0)->gear));
  printf("mjsActuator.target %d %d\n", (int)offsetof(mjsActuator, target),
         (int)sizeof(((mjsActuator*)0)->target));
  printf("mjsActuator.refsite %d %d\n", (int)offsetof(mjsActuator, refsite),
         (int)sizeof(((mjsActuator*)0)->refsite));
  printf("mjsActuator.slidersite %d %d\n", (int)offsetof(mjsActuator, slidersite),
         (int)sizeof(((mjsActuator*)0)->slidersite));
  printf("mjsActuator.cranklength %d %d\n", (int)offsetof(mjsActuator, cranklength),
         (int)sizeof(((mjsActuator*)0)->cranklength));
  printf("mjsActuator.lengthrange %d %d\n", (int)offsetof(mjsActuator, lengthrange),
         (int)sizeof(((mjsActuator*)0)->lengthrange));
  printf("mjsActuator.inheritrange %d %d\n", (int)offsetof(mjsActuator, inheritrange),
         (int)sizeof(((mjsActuator*)0)->inheritrange));
  printf("mjsActuator.damping %d %d\n", (int)offsetof(mjsActuator, damping),
         (int)sizeof(((mjsActuator*)0)->damping));
  printf("mjsActuator.armature %d %d\n", (int)offsetof(mjsActuator, armature),
         (int)sizeof(((mjsActuator*)0)->armature));
  printf("mjsActuator.ctrllimited %d %d\n", (int)offsetof(mjsActuator, ctrllimited),
         (int)sizeof(((mjsActuator*)0)->ctrllimited));
  printf("mjsActuator.ctrlrange %d %d\n", (int)offsetof(mjsActuator, ctrlrange),
         (int)sizeof(((mjsActuator*)0)->ctrlrange));
  printf("mjsActuator.forcelimited %d %d\n", (int)offsetof(mjsActuator, forcelimited),
         (int)sizeof(((mjsActuator*)0)->forcelimited));
  printf("mjsActuator.forcerange %d %d\n", (int)offsetof(mjsActuator, forcerange),
         (int)sizeof(((mjsActuator*)0)->forcerange));
  printf("mjsActuator.actlimited %d %d\n", (int)offsetof(mjsActuator, actlimited),
         (int)sizeof(((mjsActuator*)0)->actlimited));
  printf("mjsActuator.actrange %d %d\n", (int)offsetof(mjsActuator, actrange),
         (int)sizeof(((mjsActuator*)0)->actrange));
  printf("mjsActuator.group %d %d\n", (int)offsetof(mjsActuator, group),
         (int)sizeof(((mjsActuator*)0)->group));
  printf("mjsActuator.nsample %d %d\n", (int)offsetof(mjsActuator, nsample),
         (int)sizeof(((mjsActuator*)0)->nsample));
  printf("mjsActuator.interp %d %d\n", (int)offsetof(mjsActuator, interp),
         (int)sizeof(((mjsActuator*)0)->interp));
  printf("mjsActuator.delay %d %d\n", (int)offsetof(mjsActuator, delay),
         (int)sizeof(((mjsActuator*)0)->delay));
  printf("mjsActuator.userdata %d %d\n", (int)offsetof(mjsActuator, userdata),
         (int)sizeof(((mjsActuator*)0)->userdata));
  printf("mjsActuator.plugin %d %d\n", (int)offsetof(mjsActuator, plugin),
         (int)sizeof(((mjsActuator*)0)->plugin));
  printf("mjsActuator.info %d %d\n", (int)offsetof(mjsActuator, info),
         (int)sizeof(((mjsActuator*)0)->info));
  printf("mjsSensor size %d\n", (int)sizeof(mjsSensor));
  printf("mjsSensor.element %d %d\n", (int)offsetof(mjsSensor, element),
         (int)sizeof(((mjsSensor*)0)->element));
  printf("mjsSensor.type %d %d\n", (int)offsetof(mjsSensor, type),
         (int)sizeof(((mjsSensor*)0)->type));
  printf("mjsSensor.objtype %d %d\n", (int)offsetof(mjsSensor, objtype),
         (int)sizeof(((mjsSensor*)0)->objtype));
  printf("mjsSensor.objname %d %d\n", (int)offsetof(mjsSensor, objname),
         (int)sizeof(((mjsSensor*)0)->objname));
  printf("mjsSensor.reftype %d %d\n", (int)offsetof(mjsSensor, reftype),
         (int)sizeof(((mjsSensor*)0)->reftype));
  printf("mjsSensor.refname %d %d\n", (int)offsetof(mjsSensor, refname),
         (int)sizeof(((mjsSensor*)0)->refname));
  printf("mjsSensor.intprm %d %d\n", (int)offsetof(mjsSensor, intprm),
         (int)sizeof(((mjsSensor*)0)->intprm));
  printf("mjsSensor.datatype %d %d\n", (int)offsetof(mjsSensor, datatype),
         (int)sizeof(((mjsSensor*)0)->datatype));
  printf("mjsSensor.needstage %d %d\n", (int)offsetof(mjsSensor, needstage),
         (int)sizeof(((mjsSensor*)0)->needstage));
  printf("mjsSensor.dim %d %d\n", (int)offsetof(mjsSensor, dim), (int)sizeof(((mjsSensor*)0)->dim));
  printf("mjsSensor.cutoff %d %d\n", (int)offsetof(mjsSensor, cutoff),
         (int)sizeof(((mjsSensor*)0)->cutoff));
  printf("mjsSensor.noise %d %d\n", (int)offsetof(mjsSensor, noise),
         (int)sizeof(((mjsSensor*)0)->noise));
  printf("mjsSensor.nsample %d %d\n", (int)offsetof(mjsSensor, nsample),
         (int)sizeof(((mjsSensor*)0)->nsample));
  printf("mjsSensor.interp %d %d\n", (int)offsetof(mjsSensor, interp),
         (int)sizeof(((mjsSensor*)0)->interp));
  printf("mjsSensor.delay %d %d\n", (int)offsetof(mjsSensor, delay),
         (int)sizeof(((mjsSensor*)0)->delay));
  printf("mjsSensor.interval %d %d\n", (int)offsetof(mjsSensor, interval),
         (int)sizeof(((mjsSensor*)0)->interval));
  printf("mjsSensor.userdata %d %d\n", (int)offsetof(mjsSensor, userdata),
         (int)sizeof(((mjsSensor*)0)->userdata));
  printf("mjsSensor.plugin %d %d\n", (int)offsetof(mjsSensor, plugin),
         (int)sizeof(((mjsSensor*)0)->plugin));
  printf("mjsSensor.info %d %d\n", (int)offsetof(mjsSensor, info),
         (int)sizeof(((mjsSensor*)0)->info));
  printf("mjsNumeric size %d\n", (int)sizeof(mjsNumeric));
  printf("mjsNumeric.element %d %d\n", (int)offsetof(mjsNumeric, element),
         (int)sizeof(((mjsNumeric*)0)->element));
  printf("mjsNumeric.data %d %d\n", (int)offsetof(mjsNumeric, data),
         (int)sizeof(((mjsNumeric*)0)->data));
  printf("mjsNumeric.size %d %d\n", (int)offsetof(mjsNumeric, size),
         (int)sizeof(((mjsNumeric*)0)->size));
  printf("mjsNumeric.info %d %d\n", (int)offsetof(mjsNumeric, info),
         (int)sizeof(((mjsNumeric*)0)->info));
  printf("mjsText size %d\n", (int)sizeof(mjsText));
  printf("mjsText.element %d %d\n", (int)offsetof(mjsText, element),
         (int)sizeof(((mjsText*)0)->element));
  printf("mjsText.data %d %d\n", (int)offsetof(mjsText, data), (int)sizeof(((mjsText*)0)->data));
  printf("mjsText.info %d %d\n", (int)offsetof(mjsText, info), (int)sizeof(((mjsText*)0)->info));
  printf("mjsTuple size %d\n", (int)sizeof(mjsTuple));
  printf("mjsTuple.element %d %d\n", (int)offsetof(mjsTuple, element),
         (int)sizeof(((mjsTuple*)0)->element));
  printf("mjsTuple.objtype %d %d\n", (int)offsetof(mjsTuple, objtype),
         (int)sizeof(((mjsTuple*)0)->objtype));
  printf("mjsTuple.objname %d %d\n", (int)offsetof(mjsTuple, objname),
         (int)sizeof(((mjsTuple*)0)->objname));
  printf("mjsTuple.objprm %d %d\n", (int)offsetof(mjsTuple, objprm),
         (int)sizeof(((mjsTuple*)0)->objprm));
  printf("mjsTuple.info %d %d\n", (int)offsetof(mjsTuple, info), (int)sizeof(((mjsTuple*)0)->info));
  printf("mjsKey size %d\n", (int)sizeof(mjsKey));
  printf("mjsKey.element %d %d\n", (int)offsetof(mjsKey, element),
         (int)sizeof(((mjsKey*)0)->element));
  printf("mjsKey.time %d %d\n", (int)offsetof(mjsKey, time), (int)sizeof(((mjsKey*)0)->time));
  printf("mjsKey.qpos %d %d\n", (int)offsetof(mjsKey, qpos), (int)sizeof(((mjsKey*)0)->qpos));
  printf("mjsKey.qvel %d %d\n", (int)offsetof(mjsKey, qvel), (int)sizeof(((mjsKey*)0)->qvel));
  printf("mjsKey.act %d %d\n", (int)offsetof(mjsKey, act), (int)sizeof(((mjsKey*)0)->act));
  printf("mjsKey.mpos %d %d\n", (int)offsetof(mjsKey, mpos), (int)sizeof(((mjsKey*)0)->mpos));
  printf("mjsKey.mquat %d %d\n", (int)offsetof(mjsKey, mquat), (int)sizeof(((mjsKey*)0)->mquat));
  printf("mjsKey.ctrl %d %d\n", (int)offsetof(mjsKey, ctrl), (int)sizeof(((mjsKey*)0)->ctrl));
  printf("mjsKey.info %d %d\n", (int)offsetof(mjsKey, info), (int)sizeof(((mjsKey*)0)->info));
  printf("mjsDefault size %d\n", (int)sizeof(mjsDefault));
  printf("mjsDefault.element %d %d\n", (int)offsetof(mjsDefault, element),
         (int)sizeof(((mjsDefault*)0)->element));
  printf("mjsDefault.joint %d %d\n", (int)offsetof(mjsDefault, joint),
         (int)sizeof(((mjsDefault*)0)->joint));
  printf("mjsDefault.geom %d %d\n", (int)offsetof(mjsDefault, geom),
         (int)sizeof(((mjsDefault*)0)->geom));
  printf("mjsDefault.site %d %d\n", (int)offsetof(mjsDefault, site),
         (int)sizeof(((mjsDefault*)0)->site));
  printf("mjsDefault.camera %d %d\n", (int)offsetof(mjsDefault, camera),
         (int)sizeof(((mjsDefault*)0)->camera));
  printf("mjsDefault.light %d %d\n", (int)offsetof(mjsDefault, light),
         (int)sizeof(((mjsDefault*)0)->light));
  printf("mjsDefault.flex %d %d\n", (int)offsetof(mjsDefault, flex),
         (int)sizeof(((mjsDefault*)0)->flex));
  printf("mjsDefault.mesh %d %d\n", (int)offsetof(mjsDefault, mesh),
         (int)sizeof(((mjsDefault*)0)->mesh));
  printf("mjsDefault.material %d %d\n", (int)offsetof(mjsDefault, material),
         (int)sizeof(((mjsDefault*)0)->material));
  printf("mjsDefault.pair %d %d\n", (int)offsetof(mjsDefault, pair),
         (int)sizeof(((mjsDefault*)0)->pair));
  printf("mjsDefault.equality %d %d\n", (int)offsetof(mjsDefault, equality),
         (int)sizeof(((mjsDefault*)0)->equality));
  printf("mjsDefault.tendon %d %d\n", (int)offsetof(mjsDefault, tendon),
         (int)sizeof(((mjsDefault*)0)->tendon));
  printf("mjsDefault.actuator %d %d\n", (int)offsetof(mjsDefault, actuator),
         (int)sizeof(((mjsDefault*)0)->actuator));

  // the values of the spec enums
  printf("mjINERTIA_VOLUME %d\n", (int)mjINERTIA_VOLUME);
  printf("mjINERTIA_SHELL %d\n", (int)mjINERTIA_SHELL);
  printf("mjMESH_INERTIA_CONVEX %d\n", (int)mjMESH_INERTIA_CONVEX);
  printf("mjMESH_INERTIA_EXACT %d\n", (int)mjMESH_INERTIA_EXACT);
  printf("mjMESH_INERTIA_LEGACY %d\n", (int)mjMESH_INERTIA_LEGACY);
  printf("mjMESH_INERTIA_SHELL %d\n", (int)mjMESH_INERTIA_SHELL);
  printf("mjMESH_BUILTIN_NONE %d\n", (int)mjMESH_BUILTIN_NONE);
  printf("mjMESH_BUILTIN_SPHERE %d\n", (int)mjMESH_BUILTIN_SPHERE);
  printf("mjMESH_BUILTIN_HEMISPHERE %d\n", (int)mjMESH_BUILTIN_HEMISPHERE);
  printf("mjMESH_BUILTIN_CONE %d\n", (int)mjMESH_BUILTIN_CONE);
  printf("mjMESH_BUILTIN_SUPERSPHERE %d\n", (int)mjMESH_BUILTIN_SUPERSPHERE);
  printf("mjMESH_BUILTIN_SUPERTORUS %d\n", (int)mjMESH_BUILTIN_SUPERTORUS);
  printf("mjMESH_BUILTIN_WEDGE %d\n", (int)mjMESH_BUILTIN_WEDGE);
  printf("mjMESH_BUILTIN_PLATE %d\n", (int)mjMESH_BUILTIN_PLATE);
  printf("mjBUILTIN_NONE %d\n", (int)mjBUILTIN_NONE);
  printf("mjBUILTIN_GRADIENT %d\n", (int)mjBUILTIN_GRADIENT);
  printf("mjBUILTIN_CHECKER %d\n", (int)mjBUILTIN_CHECKER);
  printf("mjBUILTIN_FLAT %d\n", (int)mjBUILTIN_FLAT);
  printf("mjMARK_NONE %d\n", (int)mjMARK_NONE);
  printf("mjMARK_EDGE %d\n", (int)mjMARK_EDGE);
  printf("mjMARK_CROSS %d\n", (int)mjMARK_CROSS);
  printf("mjMARK_RANDOM %d\n", (int)mjMARK_RANDOM);
  printf("mjLIMITED_FALSE %d\n", (int)mjLIMITED_FALSE);
  printf("mjLIMITED_TRUE %d\n", (int)mjLIMITED_TRUE);
  printf("mjLIMITED_AUTO %d\n", (int)mjLIMITED_AUTO);
  printf("mjALIGNFREE_FALSE %d\n", (int)mjALIGNFREE_FALSE);
  printf("mjALIGNFREE_TRUE %d\n", (int)mjALIGNFREE_TRUE);
  printf("mjALIGNFREE_AUTO %d\n", (int)mjALIGNFREE_AUTO);
  printf("mjINERTIAFROMGEOM_FALSE %d\n", (int)mjINERTIAFROMGEOM_FALSE);
  printf("mjINERTIAFROMGEOM_TRUE %d\n", (int)mjINERTIAFROMGEOM_TRUE);
  printf("mjINERTIAFROMGEOM_AUTO %d\n", (int)mjINERTIAFROMGEOM_AUTO);
  printf("mjORIENTATION_QUAT %d\n", (int)mjORIENTATION_QUAT);
  printf("mjORIENTATION_AXISANGLE %d\n", (int)mjORIENTATION_AXISANGLE);
  printf("mjORIENTATION_XYAXES %d\n", (int)mjORIENTATION_XYAXES);
  printf("mjORIENTATION_ZAXIS %d\n", (int)mjORIENTATION_ZAXIS);
  printf("mjORIENTATION_EULER %d\n", (int)mjORIENTATION_EULER);
  printf("mjCONFLICT_WARNING %d\n", (int)mjCONFLICT_WARNING);
  printf("mjCONFLICT_MERGE %d\n", (int)mjCONFLICT_MERGE);
  printf("mjCONFLICT_ERROR %d\n", (int)mjCONFLICT_ERROR);
  printf("mjCTIMER_TOTAL %d\n", (int)mjCTIMER_TOTAL);
  printf("mjCTIMER_ASSETS %d\n", (int)mjCTIMER_ASSETS);
  printf("mjCTIMER_TEXTURE %d\n", (int)mjCTIMER_TEXTURE);
  printf("mjCTIMER_MESH_LOAD %d\n", (int)mjCTIMER_MESH_LOAD);
  printf("mjCTIMER_MESH_HULL %d\n", (int)mjCTIMER_MESH_HULL);
  printf("mjCTIMER_MESH_POLYGON %d\n", (int)mjCTIMER_MESH_POLYGON);
  printf("mjCTIMER_MESH_INERTIA %d\n", (int)mjCTIMER_MESH_INERTIA);
  printf("mjCTIMER_MESH_BVH %d\n", (int)mjCTIMER_MESH_BVH);
  printf("mjCTIMER_MESH_OCTREE %d\n", (int)mjCTIMER_MESH_OCTREE);
  printf("mjNCTIMER %d\n", (int)mjNCTIMER);
  printf("mjPROJ_PERSPECTIVE %d\n", (int)mjPROJ_PERSPECTIVE);
  printf("mjPROJ_ORTHOGRAPHIC %d\n", (int)mjPROJ_ORTHOGRAPHIC);
  printf("mjLIGHT_SPOT %d\n", (int)mjLIGHT_SPOT);
  printf("mjLIGHT_DIRECTIONAL %d\n", (int)mjLIGHT_DIRECTIONAL);
  printf("mjLIGHT_POINT %d\n", (int)mjLIGHT_POINT);
  printf("mjLIGHT_IMAGE %d\n", (int)mjLIGHT_IMAGE);
  printf("mjCOLORSPACE_AUTO %d\n", (int)mjCOLORSPACE_AUTO);
  printf("mjCOLORSPACE_LINEAR %d\n", (int)mjCOLORSPACE_LINEAR);
  printf("mjCOLORSPACE_SRGB %d\n", (int)mjCOLORSPACE_SRGB);
  printf("mjSLEEP_AUTO %d\n", (int)mjSLEEP_AUTO);
  printf("mjSLEEP_AUTO_NEVER %d\n", (int)mjSLEEP_AUTO_NEVER);
  printf("mjSLEEP_AUTO_ALLOWED %d\n", (int)mjSLEEP_AUTO_ALLOWED);
  printf("mjSLEEP_NEVER %d\n", (int)mjSLEEP_NEVER);
  printf("mjSLEEP_ALLOWED %d\n", (int)mjSLEEP_ALLOWED);
  printf("mjSLEEP_INIT %d\n", (int)mjSLEEP_INIT);
  printf("mjFLEXSELF_NONE %d\n", (int)mjFLEXSELF_NONE);
  printf("mjFLEXSELF_NARROW %d\n", (int)mjFLEXSELF_NARROW);
  printf("mjFLEXSELF_BVH %d\n", (int)mjFLEXSELF_BVH);
  printf("mjFLEXSELF_SAP %d\n", (int)mjFLEXSELF_SAP);
  printf("mjFLEXSELF_AUTO %d\n", (int)mjFLEXSELF_AUTO);
  return 0;
}
