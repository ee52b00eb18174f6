import type { APIRoute } from 'astro';
import { drawIcon } from '../lib/images.ts';

export const GET: APIRoute = () => new Response(drawIcon(), { headers: { 'Content-Type': 'image/svg+xml' } });
