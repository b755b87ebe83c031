#version 330 core
// The atlas holds distance to the outline (0.5 on the edge): crisp text at every size.
// Small text is drawn a little bolder, or its thin stems fade into the background.

in vec2 v_uv;
flat in vec4 v_tint;

uniform sampler2D u_atlas;

out vec4 color;

void main() {
    float dist = texture(u_atlas, v_uv).r;
    float w = max(fwidth(dist), 1e-4);
    float bolder = clamp(0.35 * w, 0.0, 0.06);
    float alpha = smoothstep(0.5 - bolder - w, 0.5 - bolder + w, dist);
    color = vec4(v_tint.rgb, v_tint.a * alpha);
    if (color.a <= 0.0)
        discard;
}
