#version 330 core
// A rounded box by its signed distance, anti-aliased over one pixel, with an inner border;
// over it the cell's value, as if drawn after it (the same blend, one fragment instead of two).

in vec2 v_local;
flat in vec2 v_half;
flat in vec4 v_fill;
flat in vec4 v_border;
flat in vec2 v_style;
in vec2 v_pixel;
flat in vec4 v_text_rect;
flat in vec4 v_text_texels;
flat in vec4 v_text_tint;

uniform sampler2D u_runs;

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
    vec2 t = v_pixel - v_text_rect.xy; // texels from the value's corner
    if (v_text_rect.z > 0.0 && all(greaterThanEqual(t, vec2(0.0))) &&
        all(lessThan(t, v_text_rect.zw))) {
        // Rows of the cache count from the bottom (drawn y down into a framebuffer).
        vec2 texel = vec2(v_text_texels.x + t.x,
                          float(textureSize(u_runs, 0).y) - (v_text_texels.y + t.y));
        float ink = v_text_tint.a * texelFetch(u_runs, ivec2(texel), 0).r;
        float alpha = ink + (1.0 - ink) * color.a;
        if (alpha > 0.0)
            color = vec4((v_text_tint.rgb * ink + color.rgb * color.a * (1.0 - ink)) / alpha, alpha);
    }
    if (color.a <= 0.0)
        discard;
}
