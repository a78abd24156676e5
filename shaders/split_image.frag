#version 450 core
// An image demo's picture: two textures of the same image side by side across a split line (the
// histogram demo's before | after, the rotation demo's source | output), with the line drawn on top.
// Drawn with quad.vert over the free part of the framebuffer; the image's rectangle may be larger
// than the viewport (zoomed in) or smaller (letterboxed: nothing drawn there, the clear colour
// shows). Coordinates come from gl_FragCoord as in quad.frag, so a 1:1 draw with nearest filtering
// hits every texel centre.
layout(binding = 0) uniform sampler2D u_left;   // shown left of the split, RGBA8, top-down
layout(binding = 1) uniform sampler2D u_right;  // shown right of it, RGBA8, top-down

uniform vec4 u_image;   // the image's rectangle: x, y (lower-left, window pixels), width, height
uniform float u_split;  // window x of the split line (far left: only u_right shows)
uniform float u_line;   // half width of the line in pixels (0: no line)

out vec4 frag_colour;

void main() {
  vec2 uv = (gl_FragCoord.xy - u_image.xy) / u_image.zw;
  if (any(lessThan(uv, vec2(0.0))) || any(greaterThanEqual(uv, vec2(1.0)))) discard;
  uv.y = 1.0 - uv.y;  // texture row 0 is the top of the image
  float x = gl_FragCoord.x;
  vec4 c = x < u_split ? texture(u_left, uv) : texture(u_right, uv);
  // Transparent pixels over a checkerboard, as image editors show them.
  float check = mod(floor(gl_FragCoord.x / 8.0) + floor(gl_FragCoord.y / 8.0), 2.0);
  vec3 rgb = mix(mix(vec3(0.30), vec3(0.45), check), c.rgb, c.a);
  // The split: a light core with a dark rim, visible on bright and dark images alike.
  float d = abs(x - u_split);
  if (u_line > 0.0 && d < u_line + 1.0) rgb = d < u_line ? vec3(1.0, 0.86, 0.25) : vec3(0.0);
  frag_colour = vec4(rgb, 1.0);
}
