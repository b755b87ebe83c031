#include "camera.hpp"

#include "scene.hpp"

#include <algorithm>
#include <cmath>

namespace pplab::scene {

Camera fit(const Rect& r, float w, float h, float margin, float max_scale) {
    Camera c;
    c.center = r.center();
    const float sw = (w - 2 * margin) / std::max(r.w, 1e-3f);
    const float sh = (h - 2 * margin) / std::max(r.h, 1e-3f);
    c.scale = std::clamp(std::min(sw, sh), 1e-3f, max_scale);
    return c;
}

Camera follow(const Scene& s, float w, float h, float margin, float closest, float readable) {
    const Camera all = fit(s.bounds, w, h, margin, closest);
    Camera c = fit(s.focus, w, h, margin, closest);
    if (c.scale < readable) {
        const Camera closer = fit(s.detail, w, h, margin, std::max(closest, readable));
        if (closer.scale >= 1.5f * c.scale) // worth losing the rest of the rows for
            c = closer;
    }
    return c.scale <= all.scale ? all : c;
}

Camera zoom_at(const Camera& c, Vec2 at, float factor, float w, float h) {
    const Vec2 anchor = c.to_world(at, w, h);
    Camera z = c;
    z.scale = std::clamp(c.scale * factor, 1e-3f, 1e5f); // deep enough to read one of 65536
    // Keep `anchor` under `at`: at = (anchor - center) * scale + (w/2, h/2).
    z.center = {anchor.x - (at.x - w / 2) / z.scale, anchor.y - (at.y - h / 2) / z.scale};
    return z;
}

Camera blend(const Camera& a, const Camera& b, float t) {
    Camera c;
    c.center = {a.center.x + (b.center.x - a.center.x) * t,
                a.center.y + (b.center.y - a.center.y) * t};
    c.scale = a.scale * std::pow(b.scale / a.scale, t);
    return c;
}

} // namespace pplab::scene
