/**
 * Spanish for the keys of core/i18n/en-developers.ts: the developer pages and the MCP set-up. Code,
 * paths, parameter names, attribute values and snippets stay as they are; so do the names of protocols
 * and products (WebSub, JSON Feed, Streamable HTTP, Claude Desktop), as Spanish-speaking developers
 * write them.
 */
import type { enDevelopers } from './en-developers.ts';

export const esDevelopers: typeof enDevelopers = {
  developers: {
    crumb: 'Desarrolladores',
    title: 'Reseñas de {name} para desarrolladores y agentes de IA',
    description: 'Datos abiertos: cada reseña verificada de {name} en JSON, Atom y JSON Feed, una API de búsqueda, un servidor MCP para agentes y avisos por WebSub.',
    apiTitle: 'Referencia de la API: reseñas de {name}',
    apiDescription: 'Cada punto de acceso de la API de reseñas, con sus parámetros, respuestas, esquemas y ejemplos de curl para copiar: búsqueda, desde una fecha, peticiones condicionales, WebSub y MCP.',
    heading: 'Para desarrolladores y agentes de IA',
    intro: 'Todo lo que publica este sitio son datos abiertos: sin clave, sin registro, con CORS abierto a cualquier origen y peticiones condicionales (ETag) en todas partes. La {reference} describe cada punto de acceso con ejemplos; la misma descripción, legible por máquinas, está en {openapi}.',
    reference: 'referencia de la API',
    datasets: 'Conjuntos de datos',
    reviewsDataset: '{link}: todas las reseñas verificadas, de la más reciente a la más antigua, con el negocio y su valoración global.',
    insightsDataset: '{link}: lo que dicen los clientes por tema, técnico, servicio y zona, con las preguntas frecuentes y el resumen que muestra la página de inicio.',
    feeds: 'Canales',
    newestFeeds: '{atom} (Atom) y {json} (JSON Feed 1.1): las 50 reseñas más recientes, cada una con su valoración en el título.',
    sliceFeeds:
      'Un canal por cada subconjunto, en los dos formatos: cada técnico (<code>/feeds/technicians/&lbrace;slug&rbrace;.xml</code>), cada servicio (<code>/feeds/services/&lbrace;id&rbrace;.xml</code>), las quejas sobre cada aspecto (<code>/feeds/complaints/&lbrace;aspect&rbrace;.xml</code>) y todas las quejas, es decir, las reseñas de 1 o 2 estrellas o con una opinión negativa ({complaints}); <code>.json</code> para JSON Feed. {index} los enumera todos, y cada página anuncia los suyos.',
    searchAndSince: 'Búsqueda y novedades desde una fecha',
    search: '<code>/api/reviews/search</code>: filtra por palabras, estrellas, técnico, servicio, tema y fecha. Ejemplo: {example}.',
    since: '<code>/api/reviews/since/YYYY-MM-DD</code>: todas las reseñas a partir de una fecha, para ponerse al día.',
    changes:
      '{link}: cada reseña añadida, editada, ocultada o eliminada desde el <code>next_token</code> de su última llamada (<code>?since=…</code>), de la más antigua a la más reciente, para mantener una copia idéntica a <code>/reviews.json</code>; la herramienta MCP <code>get_changes</code> da la misma respuesta.',
    websubHeading: 'WebSub: reciba las reseñas nuevas en cuanto se publican',
    websub:
      'El hub, en {hub}, envía cada cambio de <code>/feed.xml</code>, <code>/api/feed.json</code>, <code>/reviews.json</code> y de cada canal de <code>/feeds.json</code> a sus suscriptores (W3C WebSub): una reseña nueva sobre un técnico solo llega a los canales de ese técnico, y a los de quejas si es una queja. Suscríbase con una dirección de retorno (callback) HTTPS que devuelva <code>hub.challenge</code>:',
    widgetHeading: 'Las reseñas en su propio sitio web',
    widget:
      'Con dos líneas se muestran la valoración, el histograma y las reseñas más recientes, con un enlace de vuelta aquí (atributos: <code>count</code> de 0 a 10, <code>min-rating</code>, <code>technician</code>, <code>service</code>, <code>sort="best"</code>, <code>theme</code> light, dark o auto):',
    frame: 'Donde no se puede ejecutar ningún script, un marco admite las mismas opciones en su dirección. Su altura para cada valor de <code>count</code> basta para mostrarlo todo en cualquier anchura a partir de 320 px: {heights}.',
    frameSizer: 'O deje que el marco tome la altura de su contenido: añada a la página esta única línea, que recibe la altura que el marco envía.',
    llmsHeading: 'Para modelos de lenguaje',
    llms: '{link} indica a los agentes dónde están los datos, el documento OpenAPI y el punto de acceso MCP.',
  },
  mcpSetup: {
    heading: 'Servidor MCP para agentes de IA',
    intro: 'El servicio es un servidor del Model Context Protocol en {url} (Streamable HTTP, protocolo 2025-06-18). No necesita clave. Sus herramientas son de solo lectura: {tools}.',
    claudeDesktop: '<strong>Claude Desktop:</strong> Configuración → Conectores → Añadir conector personalizado, con la URL de arriba.',
    inspector: '<strong>MCP Inspector:</strong> <code>npx @modelcontextprotocol/inspector</code>; elija Streamable HTTP e introduzca la URL.',
    otherClient:
      '<strong>Cualquier otro cliente:</strong> JSON-RPC 2.0 por POST a la URL con <code>Accept: application/json, text/event-stream</code>; envíe primero <code>initialize</code> y después, en cada petición, el <code>Mcp-Session-Id</code> que recibió en su respuesta.',
  },
  apiReference: {
    intro: '{api}, en {base}. Esta página es el {document} escrito para personas.',
    document: 'documento OpenAPI',
    onThisPage: 'En esta página',
    examples: 'Ejemplos',
    search: 'Búsqueda',
    since: 'Todo desde una fecha',
    conditional: 'Peticiones condicionales',
    websub: 'Avisos por WebSub',
    alsoHead: ' · también HEAD, con las mismas cabeceras y sin cuerpo',
    parametersOf: 'Parámetros de {method} {path}',
    requestBody: 'Cuerpo de la petición:',
    responses: 'Respuestas',
    schemas: 'Esquemas',
    fieldsOf: 'Campos de {name}',
    typeOf: 'Tipo:',
    parameter: 'Parámetro',
    field: 'Campo',
    in: 'Ubicación',
    type: 'Tipo',
    description: 'Descripción',
    required: ' (obligatorio)',
    optional: ' (opcional)',
  },
};
