export { API_VERSION, buildOpenApiDocument, OPENAPI_VERSION } from './build-openapi-document.ts';
export { MCP_PROTOCOL_VERSION } from './protocol-schemas.ts';
