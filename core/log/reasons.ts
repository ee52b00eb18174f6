/** The reasons a review log entry can give (core/log/entry.ts), as the owner gives them in the content. */
import { z } from 'zod';

/** Why a review left the published set (`withdraw` entries; the content's withdrawn.json). */
export const WITHDRAW_REASONS = ['customer_request', 'not_a_customer', 'duplicate', 'spam', 'legal', 'removed_at_source', 'other'] as const;
export const WithdrawReasonSchema = z.enum(WITHDRAW_REASONS);
export type WithdrawReason = z.infer<typeof WithdrawReasonSchema>;

/**
 * Why the owner changed a published review's rating (`update` entries with `change: "correction"`; the
 * content's corrections.json): the customer asked, the review had been entered wrong, or another reason.
 */
export const CORRECTION_REASONS = ['customer_request', 'entry_error', 'other'] as const;
export const CorrectionReasonSchema = z.enum(CORRECTION_REASONS);
export type CorrectionReason = z.infer<typeof CorrectionReasonSchema>;
