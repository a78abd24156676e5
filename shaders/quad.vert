#version 450 core
// One triangle that covers the whole viewport, from gl_VertexID alone (no vertex buffers): its
// corners are (-1,-1), (3,-1), (-1,3) in clip space, and clipping trims it to the viewport.
void main() {
  vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));  // (0,0) (2,0) (0,2)
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
