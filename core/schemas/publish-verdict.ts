/**
 * The hub's answer to a `hub.mode=publish` ping, the body of its 202: what its store recorded for each
 * topic it re-read (the named topics and, for `/reviews.json`, every slice feed of the same build).
 * `npm run publish` parses it and reports it; the hub is the one that knows what changed.
 */
import { z } from 'zod';

export const TopicVerdictSchema = z.object({
  topic: z.string().meta({ description: 'The topic URL.' }),
  changed: z.boolean().meta({
    description:
      "True when the served build's bytes of the topic differ from the last ones the store had recorded (whether this ping or the hub's own build check recorded them first); only then are subscribers notified.",
  }),
  subscribers: z.number().int().nonnegative().meta({ description: 'How many subscribers the change was queued for (0 when unchanged).' }),
});

export const PublishVerdictSchema = z
  .object({ topics: z.array(TopicVerdictSchema) })
  .meta({ description: 'The 202 body of a publish ping: the verdict of the hub\'s store for each topic re-read.' });

export type TopicVerdict = z.infer<typeof TopicVerdictSchema>;
export type PublishVerdict = z.infer<typeof PublishVerdictSchema>;
