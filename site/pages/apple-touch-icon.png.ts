import type { APIRoute } from 'astro';
import { drawIcon, renderPng } from '../lib/images.ts';

// iOS draws its own rounded corners and shows transparency as black: the icon's square is opaque.
export const GET: APIRoute = () => new Response(new Uint8Array(renderPng(drawIcon().replace('rx="14" ', ''), 180)), { headers: { 'Content-Type': 'image/png' } });
