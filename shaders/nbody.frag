#version 450 core
// A soft round sprite; the blending is additive, so dense regions glow.
in vec3 v_colour;
uniform float u_brightness;
out vec4 o_colour;

void main() {
  vec2 c = gl_PointCoord * 2.0 - 1.0;
  float r2 = dot(c, c);
  if (r2 > 1.0) discard;
  float a = exp(-3.0 * r2) * u_brightness;
  o_colour = vec4(v_colour * a, 1.0);
}
