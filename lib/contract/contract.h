/*
 * contract: the limits of seed 000's query/response contract, shared by
 * the encoder (llmq-encode), the validator (llmr-validate) and the store
 * (llmstore). Lengths are characters (Unicode code points).
 */
#ifndef LLMKIT_CONTRACT_H
#define LLMKIT_CONTRACT_H

/*
 * The largest count a query's counts may hold, and the response's check
 * of them allows: every JSON reader holds it exactly (2^53 - 1).
 */
#define CONTRACT_COUNT_MAX		9007199254740991ULL

/* <llmQuery> (section 1): MUST */
#define CONTRACT_MESSAGE_MAX		10000	/* userMessage */
#define CONTRACT_ACTIVE_SUBJECTS_MAX	20	/* activeSubjects items */
#define CONTRACT_RECENT_KEYWORDS_MAX	50	/* recentKeywords items */

/* <llmResponse> (sections 2 and 3): MUST */
#define CONTRACT_SUBJECTS_MAX		3	/* subjects per analysis */
#define CONTRACT_KEYWORDS_MAX		10	/* keywords per subject */

/* <llmResponse>: SHOULD (warnings) */
#define CONTRACT_SUBJECTS_MIN		1
#define CONTRACT_KEYWORDS_MIN		3
#define CONTRACT_KEYWORDS_WANT_MAX	7
#define CONTRACT_CONFIDENCE_MIN		0.6
#define CONTRACT_DESCRIPTION_MIN	50
#define CONTRACT_DESCRIPTION_MAX	200
#define CONTRACT_SUMMARY_MIN		50
#define CONTRACT_SUMMARY_MAX		300
#define CONTRACT_RESPONSE_MIN		100
#define CONTRACT_RESPONSE_MAX		2000

#endif
