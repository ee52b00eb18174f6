/**
 * The demo's Spanish reviews (issue 43 item 6): what a Spanish-speaking homeowner around Knoxville writes
 * on Google, each phrase beside the English Google's translation gives it. The English says each aspect
 * in words the analyser knows, since the insights read these reviews through their translation
 * (tests/scripts/spanish-reviews.test.ts checks every pair).
 *
 * A pair is `[Spanish, English]`. Slots are filled alike on both sides (spanish-review.ts): {T} the
 * technician (a name or "el técnico" first, then nothing in Spanish, which drops the subject, and
 * "he"/"she" in English), {o} the Spanish ending that agrees with the technician ("amable y
 * respetuos{o}"), {he} {his} English pronouns, {thing} the equipment, {price}, {company}, {area},
 * {wait} {days} {quick} {day}. `R|` marks a clause for repairs only, as in the English banks.
 */
import type { Aspect } from './aspects.ts';

export type Pair = readonly [es: string, en: string];

/** The equipment of each service, as a Spanish speaker in the US calls it (English loanwords and all). */
export const THINGS_ES: Record<string, readonly Pair[]> = {
  'ac-repair': [['el aire acondicionado', 'the air conditioning'], ['el aire', 'the air'], ['el AC', 'the AC']],
  'ac-installation': [['el aire acondicionado nuevo', 'the new air conditioner'], ['el aire central nuevo', 'the new central air']],
  'furnace-repair': [['la calefacción', 'the heating'], ['el furnace', 'the furnace']],
  'heat-pump': [['la bomba de calor', 'the heat pump'], ['el mini split', 'the mini split']],
  'hvac-maintenance': [['el sistema de aire y calefacción', 'the air and heating system'], ['todo el sistema', 'the whole system']],
  'water-heater': [['el calentador de agua', 'the water heater'], ['el boiler', 'the boiler']],
  'drain-cleaning': [['el drenaje de la cocina', 'the kitchen drain'], ['el drenaje de la regadera', 'the shower drain'], ['el lavabo del baño', 'the bathroom sink']],
  'plumbing-repair': [['la taza del baño', 'the toilet bowl'], ['la llave del fregadero', 'the sink faucet'], ['la tubería', 'the plumbing']],
  'sewer-line': [['la línea del drenaje', 'the sewer line'], ['la tubería principal', 'the main pipe']],
  'electrical-repair': [['el contacto de la cocina', 'the kitchen outlet'], ['el apagador de la sala', 'the living room switch'], ['la instalación eléctrica', 'the electrical wiring']],
  'panel-upgrade': [['el panel eléctrico nuevo', 'the new electrical panel'], ['la caja de breakers nueva', 'the new breaker box']],
  'ev-charger': [['el cargador del carro eléctrico', 'the electric car charger'], ['el cargador nuevo', 'the new charger']],
  'duct-cleaning': [['el sistema de ductos', 'the duct system'], ['el ducto de la secadora', 'the dryer duct']],
};

/** "El técnico" before a review names the technician, by trade: [masculine, feminine, English]. */
export const WORKERS_ES = {
  hvac: ['el técnico', 'la técnica', 'the technician'],
  plumbing: ['el plomero', 'la plomera', 'the plumber'],
  electrical: ['el electricista', 'la electricista', 'the electrician'],
} as const;

export const SLOT_VALUES_ES: Record<'wait' | 'days' | 'quick' | 'day', readonly Pair[]> = {
  wait: [['dos horas', 'two hours'], ['tres horas', 'three hours'], ['más de una hora', 'more than an hour']],
  days: [['tres días', 'three days'], ['una semana', 'a week'], ['cinco días', 'five days'], ['dos semanas', 'two weeks']],
  quick: [['una hora', 'an hour'], ['dos horas', 'two hours'], ['45 minutos', '45 minutes']],
  day: [['sábado', 'Saturday'], ['domingo', 'Sunday']],
};

/** What the review starts with: what went wrong, or what the job was. */
export const OPENERS_ES: Record<string, readonly Pair[]> = {
  'ac-repair': [
    ['Se nos descompuso {thing} y la casa estaba como un horno.', '{thing} broke down on us and the house was like an oven.'],
    ['{thing} echaba puro aire caliente.', '{thing} was blowing only hot air.'],
  ],
  'ac-installation': [
    ['Contratamos a {company} para instalar {thing}.', 'We hired {company} to install {thing}.'],
    ['Nos instalaron {thing}.', 'They installed {thing} for us.'],
  ],
  'furnace-repair': [['Se nos descompuso {thing} y la casa estaba helada.', '{thing} broke down on us and the house was freezing.']],
  'heat-pump': [
    ['{thing} ya no calentaba.', "{thing} wasn't heating anymore."],
    ['Se nos descompuso {thing}.', '{thing} broke down on us.'],
  ],
  'hvac-maintenance': [
    ['Vinieron a darle mantenimiento a {thing}.', 'They came to do maintenance on {thing}.'],
    ['Tenemos el plan de mantenimiento con {company}.', 'We have the maintenance plan with {company}.'],
  ],
  'water-heater': [
    ['Nos quedamos sin agua caliente.', 'We were left without hot water.'],
    ['{thing} tenía una fuga.', '{thing} had a leak.'],
  ],
  'drain-cleaning': [
    ['Se nos tapó {thing}.', '{thing} got clogged.'],
    ['{thing} no drenaba nada.', "{thing} wasn't draining at all."],
  ],
  'plumbing-repair': [['Teníamos una fuga en {thing}.', 'We had a leak in {thing}.']],
  'sewer-line': [['Se nos tapó {thing} y el agua se regresaba.', '{thing} got clogged and the water was coming back up.']],
  'electrical-repair': [['Se nos iba la luz a cada rato.', 'The power kept going out on us.']],
  'panel-upgrade': [['Necesitábamos cambiar el panel eléctrico viejo.', 'We needed to replace the old electrical panel.']],
  'ev-charger': [['Compramos un carro eléctrico y necesitábamos un cargador en la cochera.', 'We bought an electric car and needed a charger in the garage.']],
  'duct-cleaning': [['Nos recomendaron revisar {thing} y llamamos a {company}.', 'They recommended that we check {thing} and we called {company}.']],
};

export const GENERAL_OPENERS_ES: readonly Pair[] = [
  ['Es la segunda vez que llamamos a {company}.', 'This is the second time we have called {company}.'],
  ['Una vecina nos recomendó a {company}.', 'A neighbor recommended {company} to us.'],
  ['Vivimos en {area} y encontramos a {company} en Google.', 'We live in {area} and found {company} on Google.'],
];

export const CLOSERS_ES: Record<'praise' | 'lukewarm' | 'complaint', readonly Pair[]> = {
  praise: [
    ['Los recomiendo al 100%.', 'I recommend them 100%.'],
    ['Sin duda los volveremos a llamar.', 'We will definitely call them again.'],
    ['Muchas gracias, {company}.', 'Thank you very much, {company}.'],
    ['Excelente servicio, gracias.', 'Excellent service, thank you.'],
  ],
  lukewarm: [
    ['En general bien, pero pueden mejorar.', 'Overall good, but they can improve.'],
    ['Ni bueno ni malo.', 'Neither good nor bad.'],
    ['Ojalá la próxima vez sea mejor.', 'Hopefully next time will be better.'],
  ],
  complaint: [
    ['No los recomiendo.', 'I do not recommend them.'],
    ['No vuelvo a llamarlos.', 'I will not call them again.'],
    ['Qué decepción.', 'What a disappointment.'],
  ],
};

/** Whole reviews that say no aspect. */
export const SHORT_REVIEWS_ES: readonly Pair[] = [
  ['Excelente servicio, muy recomendados.', 'Excellent service, highly recommended.'],
  ['Todo muy bien, gracias {company}.', 'Everything very good, thanks {company}.'],
  ['Muy buen servicio.', 'Very good service.'],
  ['Todo excelente, muchas gracias.', 'Everything excellent, thank you very much.'],
];

/** Words for "Puntuales, honestos y rápidos." one-liners, about the company (plural). */
export const SHORT_PRAISE_ES: Partial<Record<Aspect, readonly Pair[]>> = {
  punctuality: [['puntuales', 'punctual']],
  price: [['buen precio', 'good price'], ['precio justo', 'fair price']],
  professionalism: [['muy amables', 'very friendly'], ['profesionales', 'professional']],
  cleanliness: [['limpios', 'clean']],
  speed: [['rápidos', 'fast']],
  quality: [['excelente trabajo', 'excellent work'], ['buen trabajo', 'good work']],
  honesty: [['honestos', 'honest']],
};

/** Clauses (lower-case, no final stop) that praise an aspect. */
export const PRAISE_ES: Record<Aspect, readonly Pair[]> = {
  punctuality: [
    ['{T} llegó puntual', '{T} arrived on time'],
    ['llegaron a la hora que dijeron', 'they arrived at the time they said'],
    ['llegaron justo a tiempo', 'they arrived right on time'],
  ],
  professionalism: [
    ['{T} fue muy amable y respetuos{o}', '{T} was very kind and respectful'],
    ['todos fueron muy profesionales y educados', 'everyone was very professional and polite'],
    ['{T} nos trató con mucho respeto', '{T} treated us with a lot of respect'],
  ],
  communication: [
    ['{T} nos explicó todo con mucha paciencia', '{T} explained everything to us very patiently'],
    ['nos mantuvieron informados en todo momento', 'they kept us informed at all times'],
    ['nos avisaron por mensaje cuando venían en camino', 'they let us know by text when they were on the way'],
  ],
  quality: [
    ['hicieron un trabajo excelente', 'they did an excellent job'],
    ['R|{thing} quedó funcionando perfecto', 'R|{thing} was left working perfectly'],
    ['el trabajo quedó muy bien hecho', 'the work was very well done'],
  ],
  price: [
    ['el precio fue muy justo', 'the price was very fair'],
    ['nos cobraron {price}, menos de lo que esperábamos', 'they charged us {price}, less than we expected'],
    ['buen precio y sin cargos escondidos', 'good price and no hidden charges'],
  ],
  cleanliness: [
    ['{T} dejó todo limpio', '{T} left everything clean'],
    ['{T} se puso cubrezapatos y limpió todo al terminar', '{T} put on shoe covers and cleaned everything when finished'],
    ['dejaron la casa más limpia de como la encontraron', 'they left the house cleaner than they found it'],
  ],
  speed: [
    ['R|lo arreglaron rapidísimo', 'R|they fixed it very quickly'],
    ['en menos de {quick} ya estaba todo listo', 'in less than {quick} everything was ready'],
    ['{T} trabajó rápido y sin perder el tiempo', '{T} worked fast and without wasting time'],
  ],
  expertise: [
    ['R|{T} encontró el problema enseguida', 'R|{T} found the problem right away'],
    ['{T} sabía exactamente lo que hacía', '{T} knew exactly what {he} was doing'],
    ['se ve que son expertos', 'you can see that they are experts'],
  ],
  scheduling: [
    ['nos dieron cita para el mismo día', 'they gave us an appointment for the same day'],
    ['vinieron un {day} sin ningún problema', 'they came on a {day} without any problem'],
    ['fue muy fácil hacer la cita', 'it was very easy to make the appointment'],
  ],
  honesty: [
    ['{T} fue muy honest{o} y no nos quiso vender nada que no necesitábamos', '{T} was very honest and did not want to sell us anything we did not need'],
    ['R|fueron honestos: no había que cambiar {thing}', 'R|they were honest: {thing} did not need to be replaced'],
    ['son gente honesta y de confianza', 'they are honest and trustworthy people'],
  ],
};

/** Small gripes of a happy customer, and the lesser half of a mixed review. */
export const MILD_ES: Record<Aspect, readonly Pair[]> = {
  punctuality: [
    ['llegaron un poco tarde', 'they arrived a little late'],
    ['{T} llegó como media hora tarde', '{T} arrived about half an hour late'],
  ],
  professionalism: [
    ['{T} no fue muy amable', '{T} was not very friendly'],
    ['{T} estuvo en el teléfono casi todo el tiempo', '{T} was on {his} phone most of the time'],
  ],
  communication: [
    ['tardaron un poco en responder', 'they took a while to respond'],
    ['nos hubiera gustado que nos explicaran un poco más', 'we would have liked them to explain a little more'],
  ],
  quality: [
    ['fueron un poco descuidados con algunos detalles', 'they were a bit careless with some details'],
    ['los acabados quedaron un poco descuidados', 'the finishes were a bit sloppy'],
  ],
  price: [
    ['el precio fue un poco alto', 'the price was a bit high'],
    ['no es barato', 'it is not cheap'],
  ],
  cleanliness: [
    ['dejaron un poco de polvo', 'they left a little dust'],
    ['no limpiaron muy bien al final', "they didn't clean up very well at the end"],
  ],
  speed: [
    ['el trabajo tardó más de lo que pensábamos', 'the job took longer than we thought'],
    ['fueron un poco lentos', 'they were a bit slow'],
  ],
  expertise: [
    ['{T} tardó en averiguar cuál era el problema', '{T} took a while to figure out what the problem was'],
    ['{T} se veía con poca experiencia', '{T} seemed inexperienced'],
  ],
  scheduling: [
    ['tuvimos que esperar {days} para la cita', 'we had to wait {days} for the appointment'],
    ['cambiaron la hora de la cita una vez', 'they changed the appointment time once'],
  ],
  honesty: [
    ['nos quisieron vender cosas que no necesitábamos', 'they tried to sell us things we did not need'],
    ['el presupuesto no fue muy transparente', 'the estimate was not very transparent'],
  ],
};

export const COMPLAINTS_ES: Record<Aspect, readonly Pair[]> = {
  punctuality: [
    ['{T} llegó {wait} tarde y nadie nos avisó', '{T} arrived {wait} late and nobody told us'],
    ['los esperamos toda la mañana y nunca llegaron', 'we waited for them all morning and they never arrived'],
  ],
  professionalism: [
    ['{T} fue muy groser{o} con nosotros', '{T} was very rude to us'],
    ['fueron muy irrespetuosos con nosotros', 'they were very disrespectful to us'],
  ],
  communication: [
    ['nunca nos regresaron la llamada', 'they never called us back'],
    ['R|nunca nos explicaron qué le pasaba a {thing}', 'R|they never explained to us what was wrong with {thing}'],
  ],
  quality: [
    ['R|a los dos días {thing} se volvió a descomponer', 'R|two days later {thing} broke again'],
    ['el trabajo quedó muy mal hecho', 'the work was very poorly done'],
  ],
  price: [
    ['nos cobraron {price}, carísimo para lo que hicieron', 'they charged us {price}, very expensive for what they did'],
    ['el precio final fue mucho más alto que el presupuesto', 'the final price was much higher than the estimate'],
  ],
  cleanliness: [
    ['dejaron todo sucio', 'they left everything dirty'],
    ['{T} dejó huellas de lodo por toda la alfombra', '{T} left muddy footprints all over the carpet'],
  ],
  speed: [
    ['fueron muy lentos: se tardaron {days} en terminar', 'they were very slow: it took {days} to finish'],
    ['se tardaron una eternidad', 'it took them forever'],
  ],
  expertise: [
    ['{T} no sabía lo que estaba haciendo', "{T} didn't know what {he} was doing"],
    ['R|no pudieron averiguar cuál era el problema', 'R|they could not figure out what the problem was'],
  ],
  scheduling: [
    ['nos cancelaron la cita dos veces', 'they canceled our appointment twice'],
    ['no tenían citas hasta {days} después', 'they had no appointments until {days} later'],
  ],
  honesty: [
    ['R|nos quisieron vender un equipo nuevo sin necesidad', 'R|they wanted to sell us new equipment we did not need'],
    ['no fueron honestos con nosotros', 'they were not honest with us'],
  ],
};

/** Google shows the name on the reviewer's account: mostly a full name. */
export const FIRST_NAMES_ES: readonly string[] = [
  'Lucía', 'José', 'María', 'Juan Carlos', 'Guadalupe', 'Alejandro', 'Rosa', 'Miguel Ángel', 'Verónica', 'Francisco',
  'Yesenia', 'Jorge', 'Marisol', 'Ernesto', 'Araceli', 'Luis Fernando', 'Adriana', 'Ramón', 'Claudia', 'Héctor',
  'Gabriela', 'Óscar', 'Maribel', 'Rigoberto', 'Elena', 'Santiago',
];

export const LAST_NAMES_ES: readonly string[] = [
  'Ramírez', 'Hernández', 'García', 'López', 'Martínez', 'González', 'Pérez', 'Sánchez', 'Flores', 'Rivera',
  'Torres', 'Gómez', 'Díaz', 'Cruz', 'Morales', 'Castillo', 'Mendoza', 'Vázquez', 'Aguilar', 'Domínguez',
];
