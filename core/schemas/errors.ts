/** The one error body of the whole service (CONTRACT.md "Published shapes"). */
import { z } from 'zod';

export const ErrorIssueSchema = z.object({
  path: z.array(z.union([z.string(), z.number()])).meta({ description: 'Where the problem is, e.g. `["limit"]`.' }),
  message: z.string(),
  code: z.string(),
});

export const ErrorBodySchema = z
  .object({
    error: z.string().meta({ description: 'Machine-readable code, e.g. `invalid_request`, `not_found`.' }),
    message: z.string().meta({ description: 'One sentence for a person.' }),
    issues: z.array(ErrorIssueSchema).optional(),
  })
  .meta({ id: 'Error' });

export type ErrorIssue = z.infer<typeof ErrorIssueSchema>;
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
