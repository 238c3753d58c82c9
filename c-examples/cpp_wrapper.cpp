// cpp_wrapper: the C++17 wrapper (include/gtastream.hpp) on a file held in memory.
//
//   cpp_wrapper FILE          a table of animations and bones from a visitor class (paused after
//                             every animation and resumed), then counts from lambdas
//   cpp_wrapper FILE throw    a callback throws at the second bone: the exception comes out of
//                             decode(), the decoder reports GTS_ERR_ABORTED, and after reset()
//                             it decodes the file again
//
// Exit code 0, 1 for a decoding error (printed), 2 for a usage or system error.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "gtastream.hpp"

namespace {

// The table, built from a visitor class.
class table final : public gtastream::visitor {
public:
    explicit table(bool throw_at_second_bone) : throw_(throw_at_second_bone) {}

    gtastream::flow file(const gts_file_info &info) override
    {
        format_ = std::string(gtastream::format_name(info));
        name_ = info.has_name && info.name_len > 0 ? std::string(gtastream::name(info)) : "-";
        return gtastream::flow::next;
    }
    gtastream::flow animation(const gts_animation_info &info) override
    {
        lines_.push_back(std::string(gtastream::name(info)) + ": " +
                         std::to_string(info.bone_count) + " bones");
        animations_++;
        index_ = info.index;
        bones_ = 0;
        return gtastream::flow::next;
    }
    gtastream::flow bone(const gts_bone_info &info) override
    {
        if (throw_ && ++bones_ == 2) {
            throw std::runtime_error("thrown in bone " + label(info) + " (animation " +
                                     std::to_string(index_) + ")");
        }
        bone_ = "  " + label(info);
        frames_ = 0;
        last_ = 0.0f;
        return gtastream::flow::next;
    }
    gtastream::flow frames(gtastream::keyframes batch) override
    {
        frames_ += batch.size();
        if (!batch.empty()) {
            last_ = batch.back().time;
        }
        return gtastream::flow::next;
    }
    gtastream::flow bone_end() override
    {
        char text[64];
        std::snprintf(text, sizeof text, ": %zu keyframes, last at %.4f s", frames_,
                      static_cast<double>(last_));
        lines_.push_back(bone_ + text);
        return gtastream::flow::next;
    }
    // One animation per call: decode() returns GTS_PAUSED after each.
    gtastream::flow animation_end() override { return gtastream::flow::pause; }

    void print(unsigned pauses) const
    {
        std::printf("package %s (%s): %u animations, %u pauses\n", name_.c_str(), format_.c_str(),
                    animations_, pauses);
        for (const std::string &line : lines_) {
            std::printf("%s\n", line.c_str());
        }
    }
    unsigned animations() const { return animations_; }

private:
    static std::string label(const gts_bone_info &info)
    {
        return info.has_name ? std::string(gtastream::name(info)) : "#" + std::to_string(info.index);
    }

    bool throw_;
    std::string format_ = "-", name_ = "-", bone_;
    std::vector<std::string> lines_;
    unsigned animations_ = 0, index_ = 0, bones_ = 0;
    std::size_t frames_ = 0;
    float last_ = 0.0f;
};

// Decodes the whole buffer, resuming after pauses; the number of pauses.
unsigned decode_all(gtastream::decoder &decoder, const std::vector<unsigned char> &data)
{
    unsigned pauses = 0;
    while (decoder.decode(data.data(), data.size()) == GTS_PAUSED) {
        pauses++;
    }
    return pauses;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3 || (argc == 3 && std::string(argv[2]) != "throw")) {
        std::fprintf(stderr, "usage: cpp_wrapper FILE [throw]\n");
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    std::vector<unsigned char> data((std::istreambuf_iterator<char>(in)),
                                    std::istreambuf_iterator<char>());
    if (!in.eof() && in.fail()) {
        std::fprintf(stderr, "cpp_wrapper: cannot read %s\n", argv[1]);
        return 2;
    }
    try {
        if (argc == 3) {
            table t(true);
            gtastream::decoder decoder(t);
            try {
                decode_all(decoder, data);
                std::printf("no exception\n");
            } catch (const std::runtime_error &e) {
                std::printf("exception: %s\n", e.what());
            }
            std::printf("decoder error after it: %s\n",
                        gts_status_name(gts_decoder_error(decoder.get())));
            table again(false);
            gtastream::decoder fresh(again);
            decode_all(fresh, data);
            decoder.reset();
            try {
                decode_all(decoder, data);
            } catch (const std::runtime_error &e) {
                std::printf("after reset, the same visitor throws again: %s\n", e.what());
            }
            std::printf("another decoder: %u animations\n", again.animations());
            return 0;
        }

        table t(false);
        gtastream::decoder decoder(t);
        unsigned pauses = decode_all(decoder, data);
        t.print(pauses);

        // The same file through lambdas: void ones go on, others answer a flow.
        std::size_t keyframes = 0, warnings = 0;
        gtastream::handlers h;
        h.on_frames([&](gtastream::keyframes batch) {
             keyframes += static_cast<std::size_t>(batch.end() - batch.begin());
         })
            .on_warning([&](const gts_warning &) {
                warnings++;
                return gtastream::flow::next;
            });
        gtastream::decoder counter(h);
        decode_all(counter, data);
        std::printf("handlers: %zu keyframes, %zu warnings\n", keyframes, warnings);
    } catch (const gtastream::error &e) {
        std::printf("error: %s at offset %llu\n", e.what(),
                    static_cast<unsigned long long>(e.offset()));
        return 1;
    }
    return 0;
}
