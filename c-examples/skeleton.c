/*
 * skeleton: a model's skeleton, an animation bound to it, posed and checked.
 *
 *   skeleton MODEL.dff ANIM.ifp TIME
 *
 * Reads the model's skeleton into static storage (gts_skeleton_read), prints its frames
 * (index, parent, HAnim id, name) and skin, binds the first animation's tracks as San
 * Andreas binds them (gts_skeleton_bind), poses the model at TIME seconds
 * (gts_pose_model: each frame's model-space position printed), then checks the animation
 * against the model (gts_skeleton_check) and the model alone (gts_skeleton_report), one line
 * per finding. Exit code 0, 1 if a call failed (the status is printed), 2 for a usage or
 * system error.
 */
#include <stdio.h>
#include <stdlib.h>

#include "gtastream.h"

/* Large (48 KiB): kept out of the stack. */
static gts_skeleton skeleton;
static float matrices[GTS_SKELETON_MAX_FRAMES * 16];
static gts_track_binding bindings[256];

static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *data = NULL;
    long size;
    if (!f) {
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        data = malloc((size_t)size + 1);
        if (data && fread(data, 1, (size_t)size, f) != (size_t)size) {
            free(data);
            data = NULL;
        }
        *len = (size_t)size;
    }
    fclose(f);
    return data;
}

static void GTS_CALL on_finding(void *user, const gts_finding *finding)
{
    gts_rule rule;
    (void)user;
    if (gts_rule_info(finding->rule, &rule) == GTS_OK) {
        printf("finding %s bone %lld\n", rule.id, (long long)finding->bone);
    }
}

static int failed(const char *what, gts_status status, uint64_t offset)
{
    printf("%s: %s at %llu\n", what, gts_status_name(status), (unsigned long long)offset);
    return 1;
}

int main(int argc, char **argv)
{
    size_t model_len = 0, anim_len = 0, count = 0, i;
    unsigned char *model, *anim;
    uint64_t offset = 0;
    uint32_t errors = 0;
    gts_status status;
    gts_skin_info skin;
    int code = 0;

    if (argc != 4) {
        fprintf(stderr, "usage: skeleton MODEL.dff ANIM.ifp TIME\n");
        return 2;
    }
    model = read_file(argv[1], &model_len);
    anim = read_file(argv[2], &anim_len);
    if (!model || !anim) {
        fprintf(stderr, "skeleton: cannot read the files\n");
        free(model);
        free(anim);
        return 2;
    }

    status = gts_skeleton_read(&skeleton, sizeof skeleton, model, model_len, &offset);
    free(model);
    if (status != GTS_OK) {
        free(anim);
        return failed("gts_skeleton_read", status, offset);
    }
    printf("frames %lu nodes %lu\n", (unsigned long)gts_skeleton_frame_count(&skeleton),
           (unsigned long)gts_skeleton_node_count(&skeleton));
    for (i = 0; i < gts_skeleton_frame_count(&skeleton); i++) {
        gts_frame_info frame;
        if (gts_skeleton_frame_info(&skeleton, i, &frame) != GTS_OK) {
            code = 1;
            continue;
        }
        printf("frame %lu parent %d id %d name \"%.*s\"\n", (unsigned long)i, frame.parent,
               frame.has_node_id ? frame.node_id : -1, (int)frame.name_len,
               frame.name ? (const char *)frame.name : "");
    }
    if (gts_skeleton_skin(&skeleton, &skin) == GTS_OK) {
        float inverse[16];
        gts_skeleton_inverse_bind(&skeleton, 0, inverse);
        printf("skin bones %u layout %u bind0 %.3f %.3f %.3f\n", skin.bones, skin.layout,
               inverse[12], inverse[13], inverse[14]);
    } else {
        printf("unskinned\n");
    }

    status = gts_skeleton_bind(&skeleton, anim, anim_len, 0, GTS_CHECK_SA, bindings, 256, &count,
                               &offset);
    if (status != GTS_OK) {
        code = failed("gts_skeleton_bind", status, offset);
    }
    for (i = 0; status == GTS_OK && i < count && i < 256; i++) {
        printf("track %u frame %d unbound %u\n", bindings[i].index, bindings[i].frame,
               bindings[i].unbound);
    }

    status = gts_pose_model(&skeleton, anim, anim_len, 0, 0, (float)atof(argv[3]), 0, matrices,
                            GTS_SKELETON_MAX_FRAMES, &count, &offset);
    if (status != GTS_OK) {
        code = failed("gts_pose_model", status, offset);
    }
    for (i = 0; status == GTS_OK && i < count; i++) {
        const float *m = &matrices[16 * i];
        printf("pose %lu %.4f %.4f %.4f\n", (unsigned long)i, m[12], m[13], m[14]);
    }

    status = gts_skeleton_check(&skeleton, anim, anim_len, "anim.ifp", GTS_CHECK_SA, on_finding,
                                NULL, &errors);
    if (status != GTS_OK) {
        code = failed("gts_skeleton_check", status, 0);
    }
    printf("check errors %u\n", errors);
    status = gts_skeleton_report(&skeleton, 0, on_finding, NULL, &errors);
    if (status != GTS_OK) {
        code = failed("gts_skeleton_report", status, 0);
    }
    printf("report errors %u\n", errors);
    free(anim);
    return code;
}
