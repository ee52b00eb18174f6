import type { APIRoute } from 'astro';
import { drawIcon, renderPng, wrapPngInIco } from '../lib/images.ts';

export const GET: APIRoute = () => new Response(new Uint8Array(wrapPngInIco(renderPng(drawIcon(), 32), 32)), { headers: { 'Content-Type': 'image/x-icon' } });
