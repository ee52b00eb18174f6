/** One part of the build's review analysis, on a thread of its own (analyze-in-threads.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import { parseAspectModel, withTechnicians } from '../../core/insights/aspect-model.ts';
import { analyzeReviewDetailed } from '../../core/insights/analyze-review.ts';
import { lowerThisThreadPriority } from '../../sidecar/thread-priority.ts';
import type { AnalysisJob } from './analyze-in-threads.ts';

// The analysis gives way to a service on the same machine, whatever the priority of the build's own thread.
lowerThisThreadPriority();

const job = workerData as AnalysisJob;
const parsed = parseAspectModel(job.aspectsSource);
// The value parsed once already on the build's thread; failing here would mean it changed on the way.
if (!parsed.ok) throw new Error('The aspect set did not parse on the analysis thread.');
const model = withTechnicians(parsed.model, job.technicians);
parentPort!.postMessage(job.reviews.map((r) => analyzeReviewDetailed(r.text, model, r.rating)));
