#version 450 core
// Shows a top-down texture (texture row 0 = top of the image) in the viewport rectangle u_rect.
// Coordinates come from gl_FragCoord rather than an interpolated varying, so a 1:1 or integer-zoom
// draw with nearest filtering hits every texel centre exactly.
layout(binding = 0) uniform sampler2D u_texture;
uniform vec4 u_rect;  // the viewport: x, y (lower-left, window pixels), width, height

out vec4 frag_colour;

void main() {
  vec2 uv = (gl_FragCoord.xy - u_rect.xy) / u_rect.zw;
  // GL puts t = 0 at the bottom of the viewport; texture row 0 must appear at the top.
  uv.y = 1.0 - uv.y;
  frag_colour = texture(u_texture, uv);
}
