// Example 4 (C++17): build a table of animations from the callbacks, then print it.
//
//     anim_table FILE
//
// The file is read into memory and fed in pieces of 1000 bytes (any cut works), following the
// decoder's seeks within the buffer. The table is the host's own data (std::vector, std::string):
// the library lends names and keyframes during each callback only, so they are copied. No
// exception may leave a callback: the callbacks catch them and abort the decoder instead.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "gtastream.h"

namespace {

struct Bone {
    std::string name;
    std::optional<int32_t> id;
    std::optional<uint32_t> key;
    bool translation = false;
    bool scale = false;
    std::vector<gts_keyframe> frames;
};

struct Animation {
    std::string name;
    std::optional<float> duration;
    std::vector<Bone> bones;

    // The stored duration (Stories), else the time of the last keyframe.
    float length() const {
        if (duration) {
            return *duration;
        }
        float end = 0.0f;
        for (const Bone &bone : bones) {
            if (!bone.frames.empty()) {
                end = std::max(end, bone.frames.back().time);
            }
        }
        return end;
    }
};

class TableBuilder {
  public:
    TableBuilder() {
        gts_callbacks_init(&callbacks_);
        callbacks_.on_file = &TableBuilder::on_file;
        callbacks_.on_animation = &TableBuilder::on_animation;
        callbacks_.on_bone = &TableBuilder::on_bone;
        callbacks_.on_keyframes = &TableBuilder::on_keyframes;
    }

    // Decodes a whole file held in memory. Returns GTS_OK or the error.
    gts_status decode(const std::vector<uint8_t> &data) {
        gts_status st = gts_decoder_init(&decoder_, sizeof decoder_, &callbacks_, this);
        size_t at = 0;
        while (st == GTS_OK) {
            size_t piece = std::min<size_t>(1000, data.size() - at);
            size_t used = 0;
            st = gts_decoder_feed(&decoder_, data.data() + at, piece, &used);
            at += used;
            if (st == GTS_SEEK) {
                at = static_cast<size_t>(gts_decoder_position(&decoder_));
                st = GTS_OK;
            } else if (st == GTS_PAUSED) {
                st = GTS_OK; // (no callback here pauses) resume with the rest
            } else if (st == GTS_OK || st == GTS_DONE) {
                if (at == data.size()) {
                    return gts_decoder_finish(&decoder_);
                }
                st = GTS_OK;
            }
        }
        return st;
    }

    const gts_decoder &decoder() const { return decoder_; }

    std::string package;
    std::string format;
    std::vector<Animation> animations;

  private:
    static TableBuilder &self(void *user) { return *static_cast<TableBuilder *>(user); }

    // Runs a callback body; an exception (such as std::bad_alloc) aborts the decoder instead of
    // unwinding through the library.
    template <typename F> static int32_t guarded(F &&body) noexcept {
        try {
            body();
            return GTS_CONTINUE;
        } catch (...) {
            return GTS_ABORT;
        }
    }

    static int32_t GTS_CALL on_file(void *user, const gts_file_info *info) {
        return guarded([&] {
            TableBuilder &t = self(user);
            t.format = info->format_name;
            if (info->has_name) {
                t.package.assign(info->name, info->name_len);
            }
        });
    }

    static int32_t GTS_CALL on_animation(void *user, const gts_animation_info *info) {
        return guarded([&] {
            Animation a;
            a.name.assign(info->name, info->name_len);
            if (info->has_duration) {
                a.duration = info->duration;
            }
            self(user).animations.push_back(std::move(a));
        });
    }

    static int32_t GTS_CALL on_bone(void *user, const gts_bone_info *info) {
        return guarded([&] {
            Bone b;
            if (info->has_name) {
                b.name.assign(info->name, info->name_len);
            } else {
                b.name = "#" + std::to_string(info->index);
            }
            if (info->has_bone_id) {
                b.id = info->bone_id;
            }
            if (info->has_bone_key) {
                b.key = info->bone_key;
            }
            b.translation = info->has_translation;
            b.scale = info->has_scale;
            b.frames.reserve(info->frame_count);
            self(user).animations.back().bones.push_back(std::move(b));
        });
    }

    static int32_t GTS_CALL on_keyframes(void *user, const gts_keyframe *frames, size_t count) {
        return guarded([&] {
            std::vector<gts_keyframe> &to = self(user).animations.back().bones.back().frames;
            to.insert(to.end(), frames, frames + count);
        });
    }

    gts_decoder decoder_{};
    gts_callbacks callbacks_{};
};

} // namespace

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "%s: cannot open\n", argv[1]);
        return 1;
    }
    std::vector<uint8_t> data{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};

    TableBuilder table;
    gts_status st = table.decode(data);
    if (st != GTS_OK) {
        std::fprintf(stderr, "%s: %s at offset %llu\n", argv[1], gts_status_reason(st),
                     static_cast<unsigned long long>(gts_decoder_error_offset(&table.decoder())));
        return 1;
    }

    std::printf("package %s (%s): %zu animations\n",
                table.package.empty() ? "-" : table.package.c_str(), table.format.c_str(),
                table.animations.size());
    for (const Animation &a : table.animations) {
        std::printf("%s: %zu bones, %.4f s\n", a.name.c_str(), a.bones.size(),
                    static_cast<double>(a.length()));
        for (const Bone &b : a.bones) {
            std::printf("  %s", b.name.c_str());
            if (b.id) {
                std::printf(" id %" PRId32, *b.id);
            }
            if (b.key) {
                std::printf(" key %08" PRIx32, *b.key);
            }
            std::printf(": %zu keyframes%s%s", b.frames.size(), b.translation ? ", translation" : "",
                        b.scale ? ", scale" : "");
            if (!b.frames.empty()) {
                const gts_keyframe &last = b.frames.back();
                std::printf(", last at %.4f s: rotation %.4f %.4f %.4f %.4f",
                            static_cast<double>(last.time), static_cast<double>(last.rotation[0]),
                            static_cast<double>(last.rotation[1]),
                            static_cast<double>(last.rotation[2]),
                            static_cast<double>(last.rotation[3]));
            }
            std::printf("\n");
        }
    }
    return 0;
}
