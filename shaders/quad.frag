#version 330 core
// A rounded box by its signed distance, anti-aliased over one pixel, with an inner border.

in vec2 v_local;
flat in vec2 v_half;
flat in vec4 v_fill;
flat in vec4 v_border;
flat in vec2 v_style;

out vec4 color;

float rounded_box(vec2 p, vec2 half_size, float r) {
    vec2 q = abs(p) - half_size + vec2(r);
    return length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - r;
}

void main() {
    float d = rounded_box(v_local, v_half, v_style.y);
    float coverage = clamp(0.5 - d, 0.0, 1.0);
    vec4 c = v_fill;
    if (v_style.x > 0.0) {
        float inside = clamp(0.5 - (d + v_style.x), 0.0, 1.0);
        c = mix(v_border, v_fill, inside);
    }
    color = vec4(c.rgb, c.a * coverage);
    if (color.a <= 0.0)
        discard;
}
