#version 450 core
// One point sprite a body: sized by mass (cube root: size follows radius at constant density) and
// by perspective, coloured by speed through the ramp the UI's legend also uses.
layout(location = 0) in vec3 a_position;
layout(location = 1) in float a_mass;
layout(location = 2) in float a_speed;

uniform mat4 u_view_proj;
uniform float u_pixels_per_unit;  // viewport height / (2 tan(fov/2)): world size -> pixels at distance 1
uniform float u_point_size;       // world size of a mean-mass body
uniform float u_mean_mass;
uniform float u_speed_max;
uniform float u_mark_scale;  // 1 on a laptop; more on a tall framebuffer (a projector)
uniform vec3 u_ramp[5];

out vec3 v_colour;

vec3 ramp(float t) {
  float x = clamp(t, 0.0, 1.0) * 4.0;
  int i = min(int(x), 3);
  return mix(u_ramp[i], u_ramp[i + 1], x - float(i));
}

void main() {
  vec4 clip = u_view_proj * vec4(a_position, 1.0);
  gl_Position = clip;
  float size = u_point_size * pow(max(a_mass / u_mean_mass, 1e-3), 1.0 / 3.0);
  // The far bodies' floor and the near ones' cap grow with the framebuffer: on a 1080p projector a
  // distant body is still a dot the back row sees.
  gl_PointSize = clamp(size * u_pixels_per_unit / max(clip.w, 1e-4), 1.5 * u_mark_scale, 48.0 * u_mark_scale);
  v_colour = ramp(a_speed / u_speed_max);
}
