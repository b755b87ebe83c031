#version 330 core
// The atlas holds distance to the outline (0.5 on the edge): crisp text at every size.
// Small text is drawn a little bolder, or its thin stems fade into the background.

in vec2 v_uv;
flat in vec4 v_tint;

uniform sampler2D u_atlas;

out vec4 color;

void main() {
    float dist = texture(u_atlas, v_uv).r;
    // Half a screen pixel in distance units, from how far the atlas moves per pixel: the same
    // on a stem's ridge as on its sides. (fwidth(dist) is about 0 across a ridge: the edge
    // became a hard step there, and a stem a pixel wide between two pixel centres vanished,
    // "11" drawn as "1:" at 11 px.)
    vec2 texels = fwidth(v_uv) * vec2(textureSize(u_atlas, 0));
    float w = max(0.25 * (texels.x + texels.y) * DISTANCE_PER_TEXEL, 1e-4);
    float bolder = clamp(0.35 * w, 0.0, 0.06);
    float alpha = smoothstep(0.5 - bolder - w, 0.5 - bolder + w, dist);
    color = vec4(v_tint.rgb, v_tint.a * alpha);
    if (color.a <= 0.0)
        discard;
}
