/* xml/xml_schema.c — the MJCF schema: which elements may appear where, with which
 * attributes, and which of them Torsion implements.
 *
 * The table lists every element of MuJoCo 3.14's MJCF under its parent with its complete
 * attribute list. Validation runs before interpretation, so an unknown element or attribute
 * is reported exactly as MuJoCo does; elements marked NOTIMPL are reported as "not
 * implemented yet"; IGNORE elements are accepted and skipped.
 * After interpretation, tn__xmlCheckUsed reports any attribute that a reader did not consume
 * (a known attribute whose feature is not implemented yet). */
#include <string.h>

#include "xml/xml_error.h"
#include "xml/xml_schema.h"

/* one schema row: element `name` allowed under `parent` with attributes `attrs` */
typedef struct tnSchemaRow_ {
  const char* parent;
  const char* name;
  tnSchemaStatus status;
  const char* attrs; /* space-separated */
} tnSchemaRow;

/* the schema (parent "body" also covers worldbody, except where worldbody has its own row) */
static const tnSchemaRow schema[] = {
    {"mujoco", "compiler", TN_SCHEMA_OK,
     "autolimits boundmass boundinertia settotalmass balanceinertia strippath coordinate "
     "angle fitaabb eulerseq meshdir texturedir discardvisual usethread fusestatic "
     "inertiafromgeom inertiagrouprange saveinertial assetdir alignfree conflict"},
    {"compiler", "lengthrange", TN_SCHEMA_OK,
     "mode useexisting uselimit accel maxforce timeconst timestep inttotal interval "
     "tolrange"},
    {"mujoco", "option", TN_SCHEMA_OK,
     "timestep impratio tolerance ls_tolerance noslip_tolerance ccd_tolerance "
     "sleep_tolerance gravity wind magnetic density viscosity o_margin o_solref o_solimp "
     "o_friction integrator cone jacobian solver iterations ls_iterations "
     "noslip_iterations ccd_iterations sdf_iterations sdf_initpoints actuatorgroupdisable"},
    {"option", "flag", TN_SCHEMA_OK,
     "constraint equality frictionloss limit contact spring damper gravity clampctrl "
     "warmstart filterparent actuation refsafe sensor midphase eulerdamp autoreset "
     "nativeccd island multiccd override energy fwdinv invdiscrete sleep diagexact ipc"},
    {"mujoco", "size", TN_SCHEMA_OK,
     "memory njmax nconmax nstack nuserdata nkey nuser_body nuser_jnt nuser_geom "
     "nuser_site nuser_cam nuser_tendon nuser_actuator nuser_sensor"},
    {"mujoco", "statistic", TN_SCHEMA_OK, "meaninertia meanmass meansize extent center"},
    {"mujoco", "visual", TN_SCHEMA_OK, ""},
    {"visual", "global", TN_SCHEMA_OK,
     "cameraid orthographic fovy ipd azimuth elevation linewidth glow offwidth offheight "
     "realtime ellipsoidinertia bvactive"},
    {"visual", "quality", TN_SCHEMA_OK, "shadowsize offsamples numslices numstacks numquads"},
    {"visual", "headlight", TN_SCHEMA_OK, "ambient diffuse specular active"},
    {"visual", "map", TN_SCHEMA_OK,
     "stiffness stiffnessrot force torque alpha fogstart fogend znear zfar haze shadowclip "
     "shadowscale actuatortendon"},
    {"visual", "scale", TN_SCHEMA_OK,
     "forcewidth contactwidth contactheight connect com camera light selectpoint "
     "jointlength jointwidth actuatorlength actuatorwidth framelength framewidth "
     "constraint slidercrank frustum"},
    {"visual", "rgba", TN_SCHEMA_OK,
     "fog haze force inertia joint actuator actuatornegative actuatorpositive com camera "
     "light selectpoint connect contactpoint contactforce contactfriction contacttorque "
     "contactgap rangefinder constraint slidercrank crankbroken frustum bv bvactive"},
    {"mujoco", "default", TN_SCHEMA_OK, "class"},
    {"default", "default", TN_SCHEMA_OK, "class"},
    {"default", "mesh", TN_SCHEMA_OK, "scale maxhullvert inertia"},
    {"default", "material", TN_SCHEMA_OK,
     "texture texrepeat texuniform emission specular shininess reflectance metallic "
     "roughness rgba"},
    {"material", "layer", TN_SCHEMA_NOTIMPL, "texture role"},
    {"default", "joint", TN_SCHEMA_OK,
     "type group pos axis springdamper limited actuatorfrclimited solreflimit solimplimit "
     "solreffriction solimpfriction stiffness range actuatorfrcrange actuatorgravcomp "
     "margin ref springref armature damping frictionloss user"},
    {"default", "geom", TN_SCHEMA_OK,
     "type contype conaffinity condim group priority size material friction mass density "
     "shellinertia solmix solref solimp margin gap surfacevel adhesion fromto pos quat "
     "axisangle xyaxes zaxis euler hfield mesh fitscale rgba fluidshape fluidcoef user"},
    {"default", "site", TN_SCHEMA_OK,
     "type group pos quat axisangle xyaxes zaxis euler material mesh size fromto rgba user"},
    {"default", "camera", TN_SCHEMA_OK,
     "projection fovy ipd resolution output pos quat axisangle xyaxes zaxis euler mode "
     "focal focalpixel principal principalpixel sensorsize user"},
    {"default", "light", TN_SCHEMA_OK,
     "directional type castshadow active pos dir bulbradius intensity range attenuation "
     "cutoff softness exponent ambient diffuse specular mode"},
    {"default", "pair", TN_SCHEMA_OK,
     "condim friction solref solreffriction solimp gap margin adhesion"},
    {"default", "equality", TN_SCHEMA_OK, "active solref solimp"},
    {"default", "tendon", TN_SCHEMA_OK,
     "group limited range solreflimit solimplimit solreffriction solimpfriction "
     "frictionloss springlength width material margin stiffness damping rgba user"},
    {"default", "general", TN_SCHEMA_OK,
     "group nsample interp delay ctrlrange user ctrllimited forcelimited actlimited "
     "forcerange actrange gear damping armature cranklength actdim input velrange ffrange "
     "dyntype gaintype biastype dynprm gainprm biasprm actearly"},
    {"default", "motor", TN_SCHEMA_OK,
     "group nsample interp delay ctrlrange user ctrllimited forcelimited forcerange gear "
     "damping armature cranklength"},
    {"default", "position", TN_SCHEMA_OK,
     "group nsample interp delay ctrlrange user ctrllimited forcelimited inheritrange "
     "forcerange gear damping armature cranklength kp kv dampratio timeconst"},
    {"default", "velocity", TN_SCHEMA_OK,
     "group nsample interp delay ctrlrange user ctrllimited forcelimited forcerange gear "
     "damping armature cranklength kv"},
    {"default", "intvelocity", TN_SCHEMA_OK,
     "group nsample interp delay ctrlrange user ctrllimited forcelimited actlimited "
     "forcerange actrange inheritrange gear damping armature cranklength kp kv dampratio"},
    {"default", "orientation", TN_SCHEMA_NOTIMPL,
     "group nsample interp delay ctrlrange user forcelimited forcerange kp kv dampratio "
     "input"},
    {"default", "damper", TN_SCHEMA_OK,
     "group nsample interp delay ctrlrange user forcelimited forcerange gear damping "
     "armature cranklength kv"},
    {"default", "cylinder", TN_SCHEMA_OK,
     "group nsample interp delay ctrlrange user ctrllimited forcelimited forcerange gear "
     "damping armature cranklength timeconst area diameter bias"},
    {"default", "muscle", TN_SCHEMA_OK,
     "group nsample interp delay ctrlrange user ctrllimited forcelimited forcerange gear "
     "damping armature cranklength timeconst range force scale lmin lmax vmax fpmax fvmax"},
    {"default", "adhesion", TN_SCHEMA_OK,
     "group nsample interp delay ctrlrange user forcelimited forcerange gain"},
    {"default", "dcmotor", TN_SCHEMA_NOTIMPL, ""},
    {"default", "pid", TN_SCHEMA_NOTIMPL, ""},
    {"mujoco", "extension", TN_SCHEMA_OK, ""},
    {"extension", "plugin", TN_SCHEMA_OK, "plugin"},
    {"plugin", "instance", TN_SCHEMA_OK, "name"},
    {"instance", "config", TN_SCHEMA_OK, "key value"},
    {"mujoco", "asset", TN_SCHEMA_OK, ""},
    {"asset", "mesh", TN_SCHEMA_OK,
     "name class content_type file vertex normal texcoord face refpos refquat scale "
     "smoothnormal maxhullvert inertia builtin params material"},
    {"mesh", "plugin", TN_SCHEMA_NOTIMPL, "plugin instance"},
    {"plugin", "config", TN_SCHEMA_OK, "key value"},
    {"asset", "hfield", TN_SCHEMA_OK, "name content_type file nrow ncol size elevation"},
    {"asset", "skin", TN_SCHEMA_OK,
     "name file material rgba inflate vertex texcoord face group"},
    {"skin", "bone", TN_SCHEMA_OK, "body bindpos bindquat vertid vertweight"},
    {"asset", "texture", TN_SCHEMA_OK,
     "name type colorspace content_type file gridsize gridlayout fileright fileleft fileup "
     "filedown filefront fileback builtin rgb1 rgb2 mark markrgb random width height hflip "
     "vflip nchannel"},
    {"asset", "material", TN_SCHEMA_OK,
     "name class texture texrepeat texuniform emission specular shininess reflectance "
     "metallic roughness rgba"},
    {"mujoco", "worldbody", TN_SCHEMA_OK, ""},
    /* MuJoCo's schema admits a body directly under <mujoco> (robot fragments written for
     * inclusion); it is validated like any body and then not used */
    {"mujoco", "body", TN_SCHEMA_IGNORE,
     "name childclass pos quat axisangle xyaxes zaxis euler mocap gravcomp sleep simple "
     "user"},
    {"worldbody", "body", TN_SCHEMA_OK,
     "name childclass pos quat axisangle xyaxes zaxis euler mocap gravcomp sleep simple "
     "user"},
    {"body", "body", TN_SCHEMA_OK,
     "name childclass pos quat axisangle xyaxes zaxis euler mocap gravcomp sleep simple "
     "user"},
    {"body", "inertial", TN_SCHEMA_OK,
     "pos quat mass diaginertia axisangle xyaxes zaxis euler fullinertia"},
    {"body", "joint", TN_SCHEMA_OK,
     "name class type group pos axis springdamper limited actuatorfrclimited solreflimit "
     "solimplimit solreffriction solimpfriction stiffness range actuatorfrcrange "
     "actuatorgravcomp margin ref springref armature damping frictionloss user"},
    {"body", "freejoint", TN_SCHEMA_OK, "name group align"},
    {"body", "geom", TN_SCHEMA_OK,
     "name class type contype conaffinity condim group priority size material friction "
     "mass density shellinertia solmix solref solimp margin gap surfacevel adhesion fromto "
     "pos quat axisangle xyaxes zaxis euler hfield mesh fitscale rgba fluidshape fluidcoef "
     "user"},
    {"geom", "plugin", TN_SCHEMA_NOTIMPL, "plugin instance"},
    {"body", "site", TN_SCHEMA_OK,
     "name class type group pos quat axisangle xyaxes zaxis euler material mesh size "
     "fromto rgba user"},
    {"body", "camera", TN_SCHEMA_OK,
     "name class projection fovy ipd resolution output pos quat axisangle xyaxes zaxis "
     "euler mode target focal focalpixel principal principalpixel sensorsize user"},
    {"body", "light", TN_SCHEMA_OK,
     "name class directional type castshadow active pos dir bulbradius intensity range "
     "attenuation cutoff softness exponent ambient diffuse specular mode target texture"},
    {"body", "plugin", TN_SCHEMA_NOTIMPL, "plugin instance"},
    {"body", "composite", TN_SCHEMA_NOTIMPL,
     "prefix type count offset vertex initial curve size quat"},
    {"composite", "joint", TN_SCHEMA_NOTIMPL,
     "kind group stiffness damping armature solreffix solimpfix type axis limited range "
     "margin solreflimit solimplimit frictionloss solreffriction solimpfriction"},
    {"composite", "skin", TN_SCHEMA_NOTIMPL, "texcoord material group rgba inflate subgrid"},
    {"composite", "geom", TN_SCHEMA_NOTIMPL,
     "type contype conaffinity condim group priority size material rgba friction mass "
     "density solmix solref solimp margin gap surfacevel adhesion"},
    {"composite", "site", TN_SCHEMA_NOTIMPL, "group size material rgba mesh"},
    {"composite", "plugin", TN_SCHEMA_NOTIMPL, "plugin instance"},
    {"body", "flexcomp", TN_SCHEMA_NOTIMPL,
     "name type group dim dof count cellcount spacing radius rigid mass inertiabox scale "
     "file point element texcoord material rgba flatskin pos quat axisangle xyaxes zaxis "
     "euler origin"},
    {"flexcomp", "edge", TN_SCHEMA_NOTIMPL, "equality solref solimp stiffness damping"},
    {"flexcomp", "elasticity", TN_SCHEMA_NOTIMPL, "young poisson damping thickness elastic2d"},
    {"flexcomp", "contact", TN_SCHEMA_NOTIMPL,
     "contype conaffinity condim priority friction solmix solref solimp margin gap "
     "internal selfcollide activelayers passive"},
    {"flexcomp", "pin", TN_SCHEMA_NOTIMPL, "id range grid gridrange"},
    {"flexcomp", "plugin", TN_SCHEMA_NOTIMPL, "plugin instance"},
    {"worldbody", "geom", TN_SCHEMA_OK,
     "name class type contype conaffinity condim group priority size material friction "
     "mass density shellinertia solmix solref solimp margin gap surfacevel adhesion fromto "
     "pos quat axisangle xyaxes zaxis euler hfield mesh fitscale rgba fluidshape fluidcoef "
     "user"},
    {"worldbody", "site", TN_SCHEMA_OK,
     "name class type group pos quat axisangle xyaxes zaxis euler material mesh size "
     "fromto rgba user"},
    {"worldbody", "camera", TN_SCHEMA_OK,
     "name class projection fovy ipd resolution output pos quat axisangle xyaxes zaxis "
     "euler mode target focal focalpixel principal principalpixel sensorsize user"},
    {"worldbody", "light", TN_SCHEMA_OK,
     "name class directional type castshadow active pos dir bulbradius intensity range "
     "attenuation cutoff softness exponent ambient diffuse specular mode target texture"},
    {"worldbody", "composite", TN_SCHEMA_NOTIMPL,
     "prefix type count offset vertex initial curve size quat"},
    {"worldbody", "flexcomp", TN_SCHEMA_NOTIMPL,
     "name type group dim dof count cellcount spacing radius rigid mass inertiabox scale "
     "file point element texcoord material rgba flatskin pos quat axisangle xyaxes zaxis "
     "euler origin"},
    {"mujoco", "deformable", TN_SCHEMA_OK, ""},
    {"deformable", "flex", TN_SCHEMA_NOTIMPL,
     "name group dim radius material rgba flatskin body vertex element texcoord "
     "elemtexcoord node nodecoord cellcount dof"},
    {"flex", "contact", TN_SCHEMA_NOTIMPL,
     "contype conaffinity condim priority friction solmix solref solimp margin gap "
     "internal selfcollide activelayers passive"},
    {"flex", "edge", TN_SCHEMA_NOTIMPL, "stiffness damping"},
    {"flex", "elasticity", TN_SCHEMA_NOTIMPL, "young poisson damping thickness elastic2d"},
    {"deformable", "skin", TN_SCHEMA_OK,
     "name file material rgba inflate vertex texcoord face group"},
    {"mujoco", "contact", TN_SCHEMA_OK, ""},
    {"contact", "pair", TN_SCHEMA_OK,
     "name class geom1 geom2 condim friction solref solreffriction solimp gap margin "
     "adhesion"},
    {"contact", "exclude", TN_SCHEMA_OK, "name body1 body2"},
    {"mujoco", "tendon", TN_SCHEMA_OK, ""},
    {"tendon", "spatial", TN_SCHEMA_OK,
     "name class group limited actuatorfrclimited range actuatorfrcrange solreflimit "
     "solimplimit solreffriction solimpfriction frictionloss springlength width material "
     "margin stiffness damping armature rgba user"},
    {"spatial", "site", TN_SCHEMA_OK, "site"},
    {"spatial", "geom", TN_SCHEMA_OK, "geom sidesite"},
    {"spatial", "pulley", TN_SCHEMA_OK, "divisor"},
    {"tendon", "fixed", TN_SCHEMA_OK,
     "name class group limited actuatorfrclimited range actuatorfrcrange solreflimit "
     "solimplimit solreffriction solimpfriction frictionloss springlength margin stiffness "
     "damping armature user"},
    {"fixed", "joint", TN_SCHEMA_OK, "joint coef"},
    {"mujoco", "equality", TN_SCHEMA_OK, ""},
    {"equality", "connect", TN_SCHEMA_OK,
     "name class active solref solimp body1 body2 anchor site1 site2"},
    {"equality", "weld", TN_SCHEMA_OK,
     "name class active solref solimp body1 body2 relpose anchor site1 site2 torquescale"},
    {"equality", "joint", TN_SCHEMA_OK, "name class active solref solimp joint1 joint2 polycoef"},
    {"equality", "tendon", TN_SCHEMA_OK,
     "name class active solref solimp tendon1 tendon2 polycoef"},
    {"equality", "flex", TN_SCHEMA_NOTIMPL, "name class active solref solimp flex"},
    {"equality", "flexvert", TN_SCHEMA_NOTIMPL, "name class active solref solimp flex"},
    {"equality", "flexstrain", TN_SCHEMA_NOTIMPL, "name class active solref solimp flex cell"},
    {"mujoco", "actuator", TN_SCHEMA_OK, ""},
    {"actuator", "general", TN_SCHEMA_OK,
     "name class group nsample interp delay ctrlrange user ctrllimited forcelimited "
     "actlimited forcerange actrange lengthrange gear damping armature cranklength joint "
     "jointinparent tendon slidersite cranksite site refsite body actdim input velrange "
     "ffrange dyntype gaintype biastype dynprm gainprm biasprm actearly"},
    {"actuator", "motor", TN_SCHEMA_OK,
     "name class group nsample interp delay ctrlrange user ctrllimited forcelimited "
     "forcerange lengthrange gear damping armature cranklength joint jointinparent tendon "
     "slidersite cranksite site refsite"},
    {"actuator", "position", TN_SCHEMA_OK,
     "name class group nsample interp delay ctrlrange user ctrllimited forcelimited "
     "inheritrange forcerange lengthrange gear damping armature cranklength joint "
     "jointinparent tendon slidersite cranksite site refsite kp kv dampratio timeconst"},
    {"actuator", "velocity", TN_SCHEMA_OK,
     "name class group nsample interp delay ctrlrange user ctrllimited forcelimited "
     "forcerange lengthrange gear damping armature cranklength joint jointinparent tendon "
     "slidersite cranksite site refsite kv"},
    {"actuator", "intvelocity", TN_SCHEMA_OK,
     "name class group nsample interp delay ctrlrange user ctrllimited forcelimited "
     "actlimited forcerange actrange inheritrange lengthrange gear damping armature "
     "cranklength joint jointinparent tendon slidersite cranksite site refsite kp kv "
     "dampratio"},
    {"actuator", "orientation", TN_SCHEMA_NOTIMPL,
     "name class group nsample interp delay ctrlrange user forcelimited forcerange joint "
     "site refsite kp kv dampratio input"},
    {"actuator", "damper", TN_SCHEMA_OK,
     "name class group nsample interp delay ctrlrange user forcelimited forcerange "
     "lengthrange gear damping armature cranklength joint jointinparent tendon slidersite "
     "cranksite site refsite kv"},
    {"actuator", "cylinder", TN_SCHEMA_OK,
     "name class group nsample interp delay ctrlrange user ctrllimited forcelimited "
     "forcerange lengthrange gear damping armature cranklength joint jointinparent tendon "
     "slidersite cranksite site refsite timeconst area diameter bias"},
    {"actuator", "muscle", TN_SCHEMA_OK,
     "name class group nsample interp delay ctrlrange user ctrllimited forcelimited "
     "forcerange lengthrange gear damping armature cranklength joint jointinparent tendon "
     "slidersite cranksite timeconst tausmooth range force scale lmin lmax vmax fpmax "
     "fvmax"},
    {"actuator", "adhesion", TN_SCHEMA_OK,
     "name class group nsample interp delay ctrlrange user forcelimited forcerange body "
     "gain"},
    {"actuator", "dcmotor", TN_SCHEMA_NOTIMPL, ""},
    {"actuator", "pid", TN_SCHEMA_NOTIMPL, ""},
    {"actuator", "plugin", TN_SCHEMA_OK,
     "name class group nsample interp delay ctrlrange user plugin instance ctrllimited "
     "forcelimited actlimited forcerange actrange lengthrange gear damping armature "
     "cranklength joint jointinparent site actdim dyntype dynprm tendon cranksite "
     "slidersite actearly"},
    {"mujoco", "sensor", TN_SCHEMA_OK, ""},
    {"sensor", "touch", TN_SCHEMA_OK, "name nsample interp delay interval cutoff noise user site"},
    {"sensor", "accelerometer", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user site"},
    {"sensor", "velocimeter", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user site"},
    {"sensor", "gyro", TN_SCHEMA_OK, "name nsample interp delay interval cutoff noise user site"},
    {"sensor", "force", TN_SCHEMA_OK, "name nsample interp delay interval cutoff noise user site"},
    {"sensor", "torque", TN_SCHEMA_OK, "name nsample interp delay interval cutoff noise user site"},
    {"sensor", "magnetometer", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user site"},
    {"sensor", "camprojection", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user site camera"},
    {"sensor", "rangefinder", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user site camera data"},
    {"sensor", "jointpos", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user joint"},
    {"sensor", "jointvel", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user joint"},
    {"sensor", "tendonpos", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user tendon"},
    {"sensor", "tendonvel", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user tendon"},
    {"sensor", "actuatorpos", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user actuator"},
    {"sensor", "actuatorvel", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user actuator"},
    {"sensor", "actuatorfrc", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user actuator"},
    {"sensor", "jointactuatorfrc", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user joint"},
    {"sensor", "tendonactuatorfrc", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user tendon"},
    {"sensor", "ballquat", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user joint"},
    {"sensor", "ballangvel", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user joint"},
    {"sensor", "jointlimitpos", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user joint"},
    {"sensor", "jointlimitvel", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user joint"},
    {"sensor", "jointlimitfrc", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user joint"},
    {"sensor", "tendonlimitpos", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user tendon"},
    {"sensor", "tendonlimitvel", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user tendon"},
    {"sensor", "tendonlimitfrc", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user tendon"},
    {"sensor", "framepos", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user objtype objname reftype refname"},
    {"sensor", "framequat", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user objtype objname reftype refname"},
    {"sensor", "framexaxis", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user objtype objname reftype refname"},
    {"sensor", "frameyaxis", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user objtype objname reftype refname"},
    {"sensor", "framezaxis", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user objtype objname reftype refname"},
    {"sensor", "framelinvel", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user objtype objname reftype refname"},
    {"sensor", "frameangvel", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user objtype objname reftype refname"},
    {"sensor", "framelinacc", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user objtype objname"},
    {"sensor", "frameangacc", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user objtype objname"},
    {"sensor", "subtreecom", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user body"},
    {"sensor", "subtreelinvel", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user body"},
    {"sensor", "subtreeangmom", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user body"},
    {"sensor", "insidesite", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user site objtype objname"},
    {"sensor", "distance", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user geom1 geom2 body1 body2"},
    {"sensor", "normal", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user geom1 geom2 body1 body2"},
    {"sensor", "fromto", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user geom1 geom2 body1 body2"},
    {"sensor", "contact", TN_SCHEMA_OK,
     "name nsample interp delay interval cutoff noise user geom1 geom2 body1 body2 "
     "subtree1 subtree2 site num data reduce"},
    {"sensor", "e_potential", TN_SCHEMA_OK, "name nsample interp delay interval cutoff noise user"},
    {"sensor", "e_kinetic", TN_SCHEMA_OK, "name nsample interp delay interval cutoff noise user"},
    {"sensor", "clock", TN_SCHEMA_OK, "name nsample interp delay interval cutoff noise user"},
    {"sensor", "tactile", TN_SCHEMA_NOTIMPL,
     "name geom mesh nsample interp delay interval cutoff user"},
    {"sensor", "user", TN_SCHEMA_OK,
     "name objtype objname datatype needstage dim cutoff noise user"},
    {"sensor", "plugin", TN_SCHEMA_NOTIMPL,
     "name plugin instance cutoff objtype objname reftype refname user"},
    {"mujoco", "custom", TN_SCHEMA_OK, ""},
    {"custom", "numeric", TN_SCHEMA_OK, "name size data"},
    {"custom", "text", TN_SCHEMA_OK, "name data"},
    {"custom", "tuple", TN_SCHEMA_OK, "name"},
    {"tuple", "element", TN_SCHEMA_OK, "objtype objname prm"},
    {"mujoco", "keyframe", TN_SCHEMA_OK, ""},
    {"keyframe", "key", TN_SCHEMA_OK, "name time qpos qvel act mpos mquat ctrl"},
    {"worldbody", "frame", TN_SCHEMA_OK, "name childclass pos quat axisangle xyaxes zaxis euler"},
    {"body", "frame", TN_SCHEMA_OK, "name childclass pos quat axisangle xyaxes zaxis euler"},
    {"worldbody", "replicate", TN_SCHEMA_OK, "count sep offset euler"},
    {"body", "replicate", TN_SCHEMA_OK, "count sep offset euler"},
    {"worldbody", "attach", TN_SCHEMA_OK, "model body prefix"},
    {"body", "attach", TN_SCHEMA_OK, "model body prefix"},
    {"asset", "model", TN_SCHEMA_OK, "name file content_type"},
};

/* number of rows */
static const int nschema = (int)(sizeof(schema) / sizeof(schema[0]));

/* true when `word` is one of the space-separated words of `list` */
static int has_word(const char* list, const char* word) {
  size_t n = strlen(word);
  if (!n) {
    return 0;
  }
  for (const char* p = list; (p = strstr(p, word)) != NULL; p += n) {
    int start = p == list || p[-1] == ' ';
    int end = p[n] == 0 || p[n] == ' ';
    if (start && end) {
      return 1;
    }
  }
  return 0;
}

/* the row of element `name` under `parent` (NULL when not allowed there) */
static const tnSchemaRow* find_row(const char* parent, const char* name) {
  for (int i = 0; i < nschema; i++) {
    if (strcmp(schema[i].parent, parent) == 0 && strcmp(schema[i].name, name) == 0) {
      return &schema[i];
    }
  }
  return NULL;
}

/* attributes of elements that MuJoCo accepts in addition to the table (older spellings) */
static int extra_attr(const char* parent, const char* name, const char* attr) {
  (void)parent;
  (void)name;
  (void)attr;
  return 0;
}

/* mark every attribute of a subtree as consumed */
static void mark_used(tnXmlNode* node) {
  for (int i = 0; i < node->nattr; i++) {
    node->attr[i].used = 1;
  }
  for (int i = 0; i < node->nchild; i++) {
    mark_used(node->child[i]);
  }
}

/* the first <plugin> element in a subtree, NULL when none */
static const tnXmlNode* find_plugin(const tnXmlNode* node) {
  if (strcmp(node->name, "plugin") == 0) {
    return node;
  }
  for (int i = 0; i < node->nchild; i++) {
    const tnXmlNode* found = find_plugin(node->child[i]);
    if (found) {
      return found;
    }
  }
  return NULL;
}

/* an element Torsion does not implement; engine plugins are named (Torsion has none) */
static void report_notimpl(const tnXmlNode* node, char* err, int errsz) {
  int pluginish = strcmp(node->name, "plugin") == 0 || strcmp(node->name, "extension") == 0;
  const tnXmlNode* plugin = pluginish ? find_plugin(node) : NULL;
  const char* which = plugin ? tn__xmlAttr(plugin, "plugin") : NULL;
  const char* instance = plugin ? tn__xmlAttr(plugin, "instance") : NULL;
  if (which) {
    tn__xmlError(err, errsz, plugin, NULL,
                 "plugin '%s' is not supported (Torsion has no engine "
                 "plugins)",
                 which);
  } else if (instance) {
    tn__xmlError(err, errsz, plugin, NULL,
                 "plugin instance '%s' is not supported (Torsion has no "
                 "engine plugins)",
                 instance);
  } else if (plugin) {
    tn__xmlError(err, errsz, plugin, NULL, "engine plugins are not supported");
  } else {
    tn__xmlError(err, errsz, node, NULL, "not implemented yet");
  }
}

/* validate one element and its subtree */
static int validate(tnXmlNode* node, const char* parent, char* err, int errsz) {
  // find the element under its parent
  const tnSchemaRow* row = find_row(parent, node->name);
  if (!row && (strcmp(parent, "worldbody") == 0 || strcmp(parent, "frame") == 0 ||
               strcmp(parent, "replicate") == 0)) {
    row = find_row("body", node->name);
  }
  if (!row) {
    tn__xmlError(err, errsz, node, NULL, "unknown element (not allowed in '%s')", parent);
    return 0;
  }
  if (row->status == TN_SCHEMA_NOTIMPL) {
    report_notimpl(node, err, errsz);
    return 0;
  }

  // every attribute must be known
  for (int i = 0; i < node->nattr; i++) {
    const char* a = node->attr[i].name;
    if (!has_word(row->attrs, a) && !extra_attr(parent, node->name, a)) {
      tn__xmlError(err, errsz, node, a, "unknown attribute");
      return 0;
    }
  }
  if (row->status == TN_SCHEMA_IGNORE) {
    mark_used(node);
  }

  // children: nested defaults and bodies keep their own names as context
  for (int i = 0; i < node->nchild; i++) {
    if (!validate(node->child[i], node->name, err, errsz)) {
      return 0;
    }
  }
  return 1;
}

/* validate the document below <mujoco> */
int tn__xmlValidate(tnXmlNode* root, char* err, int errsz) {
  // the root: only "model"
  for (int i = 0; i < root->nattr; i++) {
    if (strcmp(root->attr[i].name, "model") != 0) {
      tn__xmlError(err, errsz, root, root->attr[i].name, "unknown attribute");
      return 0;
    }
  }
  for (int i = 0; i < root->nchild; i++) {
    if (!validate(root->child[i], "mujoco", err, errsz)) {
      return 0;
    }
  }
  return 1;
}

/* report the first attribute that no reader consumed */
int tn__xmlCheckUsed(const tnXmlNode* node, char* err, int errsz) {
  for (int i = 0; i < node->nattr; i++) {
    if (!node->attr[i].used) {
      tn__xmlError(err, errsz, node, node->attr[i].name, "not implemented yet");
      return 0;
    }
  }
  for (int i = 0; i < node->nchild; i++) {
    if (!tn__xmlCheckUsed(node->child[i], err, errsz)) {
      return 0;
    }
  }
  return 1;
}
