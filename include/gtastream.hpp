/*
 * gtastream.hpp: a C++17 header-only wrapper of the C API in gtastream.h.
 *
 * - gtastream::decoder owns the decoder's storage (a gts_decoder inside the object: no heap,
 *   nothing to free) and calls a gtastream::visitor, whose virtual functions you override, or a
 *   gtastream::handlers, set from lambdas.
 * - Names are std::string_view, keyframes a gtastream::keyframes view (data, size, begin, end,
 *   operator[]); both are valid during the callback only.
 * - An exception thrown by a callback never crosses the C library: it is caught, the decoding
 *   stops (as GTS_ABORT does), and it is rethrown from the decoder call that ran the callback.
 * - Decoding errors are thrown as gtastream::error (status, offset, line).
 *
 * SPDX-License-Identifier: MIT OR Apache-2.0
 */
#ifndef GTASTREAM_HPP
#define GTASTREAM_HPP

#include "gtastream.h"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace gtastream {

/** A callback's answer. */
enum class flow : std::int32_t {
    next = GTS_CONTINUE,  /**< go on decoding */
    pause = GTS_PAUSE,    /**< return GTS_PAUSED from the decoder call; call again to resume */
    abort = GTS_ABORT,    /**< stop with the sticky error GTS_ERR_ABORTED */
};

/** `len` bytes at `p` as a string view (empty for NULL). */
inline std::string_view view(const char *p, std::size_t len) noexcept
{
    return p != nullptr ? std::string_view(p, len) : std::string_view();
}

/** The names of the C structs, as string views (empty where the format stores none). */
inline std::string_view name(const gts_file_info &i) noexcept { return view(i.name, i.name_len); }
inline std::string_view name(const gts_animation_info &i) noexcept
{
    return view(i.name, i.name_len);
}
inline std::string_view name(const gts_bone_info &i) noexcept { return view(i.name, i.name_len); }
inline std::string_view name(const gts_ipl_instance &i) noexcept
{
    return view(i.model_name, i.model_name_len);
}
inline std::string_view format_name(const gts_file_info &i) noexcept
{
    return i.format_name != nullptr ? std::string_view(i.format_name) : std::string_view();
}
inline std::string_view section(const gts_section_line &l) noexcept
{
    return view(l.section, l.section_len);
}
inline std::string_view text(const gts_section_line &l) noexcept
{
    return view(l.text, l.text_len);
}

/** A view of a batch of decoded keyframes (like std::span<const gts_keyframe>). */
class keyframes {
public:
    using value_type = gts_keyframe;
    using const_iterator = const gts_keyframe *;
    using iterator = const_iterator;

    constexpr keyframes() noexcept = default;
    constexpr keyframes(const gts_keyframe *data, std::size_t size) noexcept
        : data_(size != 0 ? data : nullptr), size_(data != nullptr ? size : 0)
    {
    }

    constexpr const gts_keyframe *data() const noexcept { return data_; }
    constexpr std::size_t size() const noexcept { return size_; }
    constexpr bool empty() const noexcept { return size_ == 0; }
    constexpr const_iterator begin() const noexcept { return data_; }
    constexpr const_iterator end() const noexcept { return data_ + size_; }
    constexpr const gts_keyframe &operator[](std::size_t i) const noexcept { return data_[i]; }
    constexpr const gts_keyframe &front() const noexcept { return data_[0]; }
    constexpr const gts_keyframe &back() const noexcept { return data_[size_ - 1]; }

private:
    const gts_keyframe *data_ = nullptr;
    std::size_t size_ = 0;
};

/** The name of a status, e.g. "GTS_ERR_TRUNCATED". */
inline std::string_view status_name(gts_status status) noexcept
{
    return gts_status_name(status);
}

/** A decoding error or a misuse of the decoder: the status and where in the file it happened. */
class error : public std::runtime_error {
public:
    error(gts_status status, std::uint64_t offset, std::uint32_t line, const char *reason)
        : std::runtime_error(std::string(gts_status_name(status)) + ": " + reason),
          status_(status), offset_(offset), line_(line)
    {
    }
    /** The status (100 and up). */
    gts_status status() const noexcept { return status_; }
    /** Absolute byte offset of the failing unit; GTS_NO_OFFSET if the call itself failed. */
    std::uint64_t offset() const noexcept { return offset_; }
    /** Text IPL: the line of the error (from 1); else 0. */
    std::uint32_t line() const noexcept { return line_; }

private:
    gts_status status_;
    std::uint64_t offset_;
    std::uint32_t line_;
};

/**
 * The events of a file. Override the ones you need; each returns flow::next by default. They
 * may throw: the exception reaches the caller of the decoder function that was running.
 */
class visitor {
public:
    virtual ~visitor() = default;
    virtual flow file(const gts_file_info &) { return flow::next; }
    virtual flow animation(const gts_animation_info &) { return flow::next; }
    virtual flow bone(const gts_bone_info &) { return flow::next; }
    virtual flow frames(keyframes) { return flow::next; }
    virtual flow raw_frames(const gts_raw_keyframes &) { return flow::next; }
    virtual flow bone_end() { return flow::next; }
    virtual flow animation_end() { return flow::next; }
    virtual flow instance(const gts_ipl_instance &) { return flow::next; }
    virtual flow car(const gts_ipl_car &) { return flow::next; }
    virtual flow section_line(const gts_section_line &) { return flow::next; }
    virtual flow warning(const gts_warning &) { return flow::next; }
    virtual flow end() { return flow::next; }

    /** Which events the decoder asks the library for (a skipped event costs nothing there). */
    virtual bool wants_raw_frames() const { return false; }
};

/**
 * A visitor made of lambdas (or any callables), each returning a flow or void (= flow::next):
 *
 *     gtastream::handlers h;
 *     h.on_bone([&](const gts_bone_info &b) { names.push_back(std::string(gtastream::name(b))); });
 */
class handlers final : public visitor {
public:
    template <class F> handlers &on_file(F f) { return set(file_, std::move(f)); }
    template <class F> handlers &on_animation(F f) { return set(animation_, std::move(f)); }
    template <class F> handlers &on_bone(F f) { return set(bone_, std::move(f)); }
    template <class F> handlers &on_frames(F f) { return set(frames_, std::move(f)); }
    template <class F> handlers &on_raw_frames(F f) { return set(raw_frames_, std::move(f)); }
    template <class F> handlers &on_bone_end(F f) { return set(bone_end_, std::move(f)); }
    template <class F> handlers &on_animation_end(F f) { return set(animation_end_, std::move(f)); }
    template <class F> handlers &on_instance(F f) { return set(instance_, std::move(f)); }
    template <class F> handlers &on_car(F f) { return set(car_, std::move(f)); }
    template <class F> handlers &on_section_line(F f) { return set(section_line_, std::move(f)); }
    template <class F> handlers &on_warning(F f) { return set(warning_, std::move(f)); }
    template <class F> handlers &on_end(F f) { return set(end_, std::move(f)); }

    flow file(const gts_file_info &i) override { return call(file_, i); }
    flow animation(const gts_animation_info &i) override { return call(animation_, i); }
    flow bone(const gts_bone_info &i) override { return call(bone_, i); }
    flow frames(keyframes k) override { return call(frames_, k); }
    flow raw_frames(const gts_raw_keyframes &r) override { return call(raw_frames_, r); }
    flow bone_end() override { return call(bone_end_); }
    flow animation_end() override { return call(animation_end_); }
    flow instance(const gts_ipl_instance &i) override { return call(instance_, i); }
    flow car(const gts_ipl_car &c) override { return call(car_, c); }
    flow section_line(const gts_section_line &l) override { return call(section_line_, l); }
    flow warning(const gts_warning &w) override { return call(warning_, w); }
    flow end() override { return call(end_); }
    bool wants_raw_frames() const override { return static_cast<bool>(raw_frames_); }

private:
    template <class... A> using fn = std::function<flow(A...)>;

    template <class... A, class F> handlers &set(fn<A...> &slot, F f)
    {
        if constexpr (std::is_void_v<std::invoke_result_t<F &, A...>>) {
            slot = [f = std::move(f)](A... a) mutable {
                f(a...);
                return flow::next;
            };
        } else {
            slot = std::move(f);
        }
        return *this;
    }
    template <class... A, class... B> static flow call(fn<A...> &slot, B &&...b)
    {
        return slot ? slot(std::forward<B>(b)...) : flow::next;
    }

    fn<const gts_file_info &> file_;
    fn<const gts_animation_info &> animation_;
    fn<const gts_bone_info &> bone_;
    fn<keyframes> frames_;
    fn<const gts_raw_keyframes &> raw_frames_;
    fn<> bone_end_;
    fn<> animation_end_;
    fn<const gts_ipl_instance &> instance_;
    fn<const gts_ipl_car &> car_;
    fn<const gts_section_line &> section_line_;
    fn<const gts_warning &> warning_;
    fn<> end_;
};

/**
 * A decoder calling a visitor, which must outlive it. The decoder's storage is part of the
 * object (1 KiB: fine on the stack); it can be neither copied nor moved (the library holds its
 * address while decoding). Functions throw gtastream::error for an error status and rethrow an
 * exception a callback threw; they return the progress statuses (GTS_OK, GTS_PAUSED, GTS_DONE,
 * GTS_SEEK).
 */
class decoder {
public:
    explicit decoder(visitor &v) : visitor_(&v)
    {
        gts_callbacks cb;
        gts_callbacks_init(&cb);
        cb.on_file = &on_file;
        cb.on_animation = &on_animation;
        cb.on_bone = &on_bone;
        cb.on_keyframes = &on_keyframes;
        if (v.wants_raw_frames()) {
            cb.on_keyframes_raw = &on_keyframes_raw;
        }
        cb.on_bone_end = &on_bone_end;
        cb.on_animation_end = &on_animation_end;
        cb.on_instance = &on_instance;
        cb.on_car = &on_car;
        cb.on_section_line = &on_section_line;
        cb.on_warning = &on_warning;
        cb.on_end = &on_end;
        check(gts_decoder_init(&storage_, sizeof storage_, &cb, this));
    }
    decoder(const decoder &) = delete;
    decoder &operator=(const decoder &) = delete;
    decoder(decoder &&) = delete;
    decoder &operator=(decoder &&) = delete;
    ~decoder() = default;

    /** Decodes a whole file in memory (gts_decode_buffer): GTS_OK, or GTS_PAUSED (call again). */
    gts_status decode(const void *data, std::size_t len)
    {
        return check(gts_decode_buffer(&storage_, static_cast<const std::uint8_t *>(data), len));
    }

    /** Feeds the next bytes (gts_decoder_feed); `*consumed` as there. */
    gts_status feed(const void *data, std::size_t len, std::size_t *consumed = nullptr)
    {
        return check(gts_decoder_feed(&storage_, static_cast<const std::uint8_t *>(data), len,
                                      consumed));
    }

    /** Ends the input (gts_decoder_finish). */
    void finish() { check(gts_decoder_finish(&storage_)); }

    /** Ready for a new file; keeps the visitor and the seekable setting. */
    void reset() { check(gts_decoder_reset(&storage_)); }

    /** Before the first feed: whether the caller can seek (gts_decoder_set_seekable). */
    void set_seekable(bool seekable) { check(gts_decoder_set_seekable(&storage_, seekable)); }

    /** The absolute offset of the next byte wanted (after GTS_SEEK: where to feed from). */
    std::uint64_t position() const noexcept { return gts_decoder_position(&storage_); }

    /** The C decoder, for the functions of gtastream.h this class does not wrap. */
    gts_decoder *get() noexcept { return &storage_; }
    const gts_decoder *get() const noexcept { return &storage_; }

private:
    /** Rethrows what a callback threw, else throws an error status; returns the others. */
    gts_status check(gts_status status)
    {
        if (pending_) {
            std::exception_ptr e = std::move(pending_);
            pending_ = nullptr;
            std::rethrow_exception(e);
        }
        if (static_cast<int>(status) >= 100) {
            // A decoding error is the decoder's; a rejected call has no offset.
            bool sticky = gts_decoder_error(&storage_) == status;
            throw error(status, sticky ? gts_decoder_error_offset(&storage_) : GTS_NO_OFFSET,
                        sticky ? gts_decoder_line(&storage_) : 0, gts_status_reason(status));
        }
        return status;
    }

    /** Runs a visitor function; an exception is kept for `check` and stops the decoding. */
    template <class F> static std::int32_t guard(void *user, F &&f) noexcept
    {
        decoder *self = static_cast<decoder *>(user);
        try {
            return static_cast<std::int32_t>(f(*self->visitor_));
        } catch (...) {
            self->pending_ = std::current_exception();
            return GTS_ABORT;
        }
    }

    static std::int32_t GTS_CALL on_file(void *u, const gts_file_info *i)
    {
        return guard(u, [i](visitor &v) { return v.file(*i); });
    }
    static std::int32_t GTS_CALL on_animation(void *u, const gts_animation_info *i)
    {
        return guard(u, [i](visitor &v) { return v.animation(*i); });
    }
    static std::int32_t GTS_CALL on_bone(void *u, const gts_bone_info *i)
    {
        return guard(u, [i](visitor &v) { return v.bone(*i); });
    }
    static std::int32_t GTS_CALL on_keyframes(void *u, const gts_keyframe *f, std::size_t n)
    {
        return guard(u, [f, n](visitor &v) { return v.frames(keyframes(f, n)); });
    }
    static std::int32_t GTS_CALL on_keyframes_raw(void *u, const gts_raw_keyframes *r)
    {
        return guard(u, [r](visitor &v) { return v.raw_frames(*r); });
    }
    static std::int32_t GTS_CALL on_bone_end(void *u)
    {
        return guard(u, [](visitor &v) { return v.bone_end(); });
    }
    static std::int32_t GTS_CALL on_animation_end(void *u)
    {
        return guard(u, [](visitor &v) { return v.animation_end(); });
    }
    static std::int32_t GTS_CALL on_instance(void *u, const gts_ipl_instance *i)
    {
        return guard(u, [i](visitor &v) { return v.instance(*i); });
    }
    static std::int32_t GTS_CALL on_car(void *u, const gts_ipl_car *c)
    {
        return guard(u, [c](visitor &v) { return v.car(*c); });
    }
    static std::int32_t GTS_CALL on_section_line(void *u, const gts_section_line *l)
    {
        return guard(u, [l](visitor &v) { return v.section_line(*l); });
    }
    static std::int32_t GTS_CALL on_warning(void *u, const gts_warning *w)
    {
        return guard(u, [w](visitor &v) { return v.warning(*w); });
    }
    static std::int32_t GTS_CALL on_end(void *u)
    {
        return guard(u, [](visitor &v) { return v.end(); });
    }

    gts_decoder storage_;
    visitor *visitor_;
    std::exception_ptr pending_;
};

} // namespace gtastream

#endif /* GTASTREAM_HPP */
