#version 450 core
// Texture rotation: the rotated output the engine wrote into the texture, and, for a comparison, the
// source left of a split line. Drawn with quad.vert over the free part of the framebuffer; the
// image's rectangle may be larger than the viewport (zoomed in) or smaller (letterboxed: nothing is
// drawn there, the clear colour shows). Coordinates come from gl_FragCoord as in quad.frag, so a 1:1
// draw with nearest filtering hits every texel centre.
layout(binding = 0) uniform sampler2D u_output;  // the rotated image, RGBA8, top-down
layout(binding = 1) uniform sampler2D u_source;  // the source image, RGBA8, top-down

uniform vec4 u_image;   // the image's rectangle: x, y (lower-left, window pixels), width, height
uniform float u_split;  // window x of the split: the source left of it (far left: no comparison)
uniform float u_line;   // half width of the split line in pixels (0: no line)

out vec4 frag_colour;

void main() {
  vec2 uv = (gl_FragCoord.xy - u_image.xy) / u_image.zw;
  if (any(lessThan(uv, vec2(0.0))) || any(greaterThanEqual(uv, vec2(1.0)))) discard;
  uv.y = 1.0 - uv.y;  // texture row 0 is the top of the image
  float x = gl_FragCoord.x;
  vec4 c = x < u_split ? texture(u_source, uv) : texture(u_output, uv);
  // Transparent pixels (a border texel of an image with alpha) over a checkerboard.
  float check = mod(floor(gl_FragCoord.x / 8.0) + floor(gl_FragCoord.y / 8.0), 2.0);
  vec3 rgb = mix(mix(vec3(0.30), vec3(0.45), check), c.rgb, c.a);
  // The split: a light core with a dark rim, visible on bright and dark images alike.
  float d = abs(x - u_split);
  if (u_line > 0.0 && d < u_line + 1.0) rgb = d < u_line ? vec3(1.0, 0.86, 0.25) : vec3(0.0);
  frag_colour = vec4(rgb, 1.0);
}
