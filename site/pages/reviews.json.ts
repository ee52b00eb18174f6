import type { APIRoute } from 'astro';
import { getBuildData, jsonResponse } from '../lib/build-data.ts';

export const GET: APIRoute = async () => jsonResponse((await getBuildData()).reviewsBody);
