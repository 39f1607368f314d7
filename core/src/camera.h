// Cameras (camera.cc): the constants of the track modes. CameraPoses, the pipeline stage, is
// declared in pipeline.h, CameraProjection (the camprojection sensor) in gauss/sensor_support.h.
#pragma once

#include "gauss/data.h"
#include "gauss/model.h"

namespace gauss {

// (xpos, xquat, xmat, subtree_com at qpos0, cam_pos, cam_quat, cam_bodyid, cam_targetbodyid)
// => (cam_pos0, cam_poscom0, cam_mat0): the fixed-mode pose at qpos0 relative to the body
// origin, to the subtree com of the target (or of the body without a target), and its
// orientation.
void SetCameraConstants(Model& m, const Data& d);

}  // namespace gauss
