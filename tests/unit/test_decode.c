/* SPDX-License-Identifier: GPL-2.0-only */
/* Decode: the big-endian entry, the reason tables, the event mask words. */
#include "t.h"

#include "dtl/dtl.h"

/* The first entry of the vpa-dtl.rst sample, as far as its fields are published. */
static const uint8_t doc_entry[48] = {
	3, 2, 0x00, 0xca, 0x00, 0x00, 0x1b, 0x98, 0x00, 0x00, 0x00, 0xbb, 0x00, 0x64, 0xe3, 0x3d,
	0x00, 0x4c, 0x0a, 0x26, 0x45, 0x1c, 0x7a, 0xe0, 0, 0, 0, 0, 0, 0, 0, 0,
	0xc0, 0, 0, 0, 0, 0x0f, 0xcd, 0x28, 0x80, 0, 0, 0, 0, 0, 0x10, 0x33,
};

TEST(decode_reads_every_field_big_endian)
{
	struct dtl_rec r;

	dtl_rec__decode(&r, doc_entry);
	CHECK_EQ(r.dispatch_reason, 3);
	CHECK_EQ(r.preempt_reason, 2);
	CHECK_EQ(r.processor_id, 202);
	CHECK_EQ(r.enqueue_to_dispatch, 7064);
	CHECK_EQ(r.ready_to_enqueue, 187);
	CHECK_EQ(r.waiting_to_ready, 6611773);
	CHECK(r.timebase == 0x004c0a26451c7ae0ull);
	CHECK(r.fault_addr == 0);
	CHECK(r.srr0 == 0xc0000000000fcd28ull);
	CHECK(r.srr1 == 0x8000000000001033ull);
	CHECK_STR(dtl_dispatch__name(r.dispatch_reason), "decrementer_interrupt");
	CHECK_STR(dtl_preempt__name(r.preempt_reason), "H_CEDE");
}

TEST(encode_is_the_inverse_of_decode)
{
	struct dtl_rec r, back;
	uint8_t raw[48];

	dtl_rec__decode(&r, doc_entry);
	dtl_rec__encode(&r, raw);
	CHECK(memcmp(raw, doc_entry, 48) == 0);
	dtl_rec__decode(&back, raw);
	CHECK(memcmp(&back, &r, sizeof(r)) == 0);
}

TEST(reason_names_match_perf_exactly)
{
	CHECK_STR(dtl_dispatch__name(0), "external_interrupt");
	CHECK_STR(dtl_dispatch__name(5), "firmware_internal_event");
	CHECK_STR(dtl_dispatch__name(10), "priv_doorbell");
	CHECK_STR(dtl_preempt__name(0), "unused");
	CHECK_STR(dtl_preempt__name(5), "migration_hibernation_page_fault");
	CHECK_STR(dtl_preempt__name(9), "HDEC_adjunct");
}

TEST(reason_codes_past_the_tables_read_as_other)
{
	CHECK_STR(dtl_dispatch__name(11), "other");
	CHECK_STR(dtl_dispatch__name(255), "other");
	CHECK_STR(dtl_preempt__name(10), "other");
	CHECK_STR(dtl_preempt__name(200), "other");
}

TEST(mask_words_parse_and_format)
{
	unsigned int m = 0;
	const char *bad = NULL;
	char buf[32];

	CHECK_EQ(dtl_mask__parse("cede", &m, &bad), 0);
	CHECK_EQ(m, 1);
	CHECK_EQ(dtl_mask__parse("preempt,fault", &m, &bad), 0);
	CHECK_EQ(m, 6);
	CHECK_EQ(dtl_mask__parse("all", &m, &bad), 0);
	CHECK_EQ(m, 7);
	CHECK_EQ(dtl_mask__parse("cede,bogus", &m, &bad), -1);
	CHECK_STR(bad, "bogus");
	CHECK_EQ(dtl_mask__parse("", &m, &bad), -1);
	dtl_mask__format(5, buf, sizeof(buf));
	CHECK_STR(buf, "cede,fault");
	dtl_mask__format(7, buf, sizeof(buf));
	CHECK_STR(buf, "all");
	dtl_mask__format(0, buf, sizeof(buf));
	CHECK_STR(buf, "none");
}

TEST(preempt_reasons_fall_under_the_mask_bit_of_their_kind)
{
	CHECK_EQ(dtl_preempt__mask_bit(2), DTL_MASK_CEDE);
	CHECK_EQ(dtl_preempt__mask_bit(3), DTL_MASK_CEDE);
	CHECK_EQ(dtl_preempt__mask_bit(4), DTL_MASK_PREEMPT);
	CHECK_EQ(dtl_preempt__mask_bit(6), DTL_MASK_FAULT);
	CHECK_EQ(dtl_preempt__mask_bit(5), DTL_MASK_FAULT);
	CHECK_EQ(dtl_preempt__mask_bit(250), DTL_MASK_PREEMPT);
}
