#version 330 core
// Line segments with an optional arrowhead: the data flow between cells.

layout(location = 0) in vec2 corner; // (0,0) .. (1,1)
layout(location = 1) in vec4 ends;   // world: from.xy, to.xy
layout(location = 2) in vec4 tint;
layout(location = 3) in vec3 style; // world width, world head length, dashed (0 or 1)

uniform vec2 u_center;
uniform float u_scale;
uniform vec2 u_viewport;

out vec2 v_along; // pixels along the segment from its start, pixels across from its axis
flat out float v_length;
flat out float v_width;
flat out float v_head;
flat out float v_dashed;
flat out vec4 v_tint;

vec2 to_pixels(vec2 w) { return (w - u_center) * u_scale + 0.5 * u_viewport; }

void main() {
    vec2 a = to_pixels(ends.xy);
    vec2 b = to_pixels(ends.zw);
    float len = max(length(b - a), 1e-3);
    vec2 dir = (b - a) / len;
    vec2 normal = vec2(-dir.y, dir.x);
    v_width = max(style.x * u_scale, 1.2);
    // A head shrinks with the zoom but stays a visible triangle, never longer than the arrow.
    v_head = style.y > 0.0 ? min(max(style.y * u_scale, 5.0), 0.6 * len) : 0.0;
    float half_across = max(0.5 * v_width, 0.45 * v_head) + 1.0;
    float along = mix(-1.0, len + 1.0, corner.x);
    float across = mix(-half_across, half_across, corner.y);
    v_along = vec2(along, across);
    v_length = len;
    v_dashed = style.z;
    v_tint = tint;
    vec2 p = a + dir * along + normal * across;
    gl_Position = vec4(p.x / u_viewport.x * 2.0 - 1.0, 1.0 - p.y / u_viewport.y * 2.0, 0.0, 1.0);
}
