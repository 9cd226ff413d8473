import { z } from 'zod';

export { Code, type Envelope } from './envelope-code.ts';

export const envelopeSchema = z.object({
  code: z.number().int(),
  msg: z.string(),
  data: z.unknown().optional(),
  /** Non-zero: the success modal stays open with an "I know" button. */
  onok: z.number().int().optional(),
  /** The language the server answered in; the client adopts it when it differs from its own. */
  lang: z.string().optional(),
});
