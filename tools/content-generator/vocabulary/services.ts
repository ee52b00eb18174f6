/**
 * What customers say about the job itself before they judge it: the trouble that made them call
 * (openers) and what the technician actually did (work lines). Both are neutral on purpose, the
 * kind of sentence an aspect analysis should find no opinion in. Each opener names the service by
 * its name or an alias, which is how most reviews end up mentioning a service without a tag.
 */

export const OPENERS: Record<string, readonly string[]> = {
  'ac-repair': [
    'Our AC quit on the hottest weekend of the summer.',
    'The A/C was running but blowing warm air.',
    'Our air conditioner started making a grinding noise.',
    'We called {company} when our AC froze up for the second time.',
    'The air conditioning in our upstairs stopped working.',
    'Our AC kept tripping the breaker every afternoon.',
    'The air conditioner was leaking water onto the attic floor.',
    'Our AC would run for ten minutes and shut off.',
    'It was 84 degrees in the house when the AC gave out.',
  ],
  'ac-installation': [
    'We needed a new AC after our old unit finally died.',
    'We got three quotes for an AC replacement and went with {company}.',
    'Had {company} put in central air in our 1960s ranch.',
    'Our 20 year old system was done, so we went with a new air conditioner.',
    'We had {company} do an AC install at our rental in {area}.',
    'We finally did an AC replacement on the unit that came with the house.',
    'We added central air to an old farmhouse.',
  ],
  'furnace-repair': [
    'Our furnace stopped working on a freezing night.',
    "The furnace kept short cycling and the house wouldn't stay warm.",
    "Our gas furnace wouldn't ignite.",
    'We called about a furnace repair when the blower started squealing.',
    'The furnace was blowing cold air and the kids were bundled up in blankets.',
    'Our furnace made a loud bang every time it kicked on.',
    'We smelled gas near the furnace and called right away.',
  ],
  'heat-pump': [
    'Our heat pump was stuck in defrost mode.',
    'We had a mini split put in the bonus room.',
    'The heat pump was running nonstop and the power bill doubled.',
    'Our ductless unit in the sunroom stopped heating.',
    'The outdoor heat pump unit was iced over.',
    'Our heat pump was blowing lukewarm air all week.',
    'We wanted a ductless mini split for the garage workshop.',
  ],
  'hvac-maintenance': [
    'We have the maintenance plan and this was our spring tune-up.',
    'Scheduled a tune-up before the season started.',
    'This was our yearly HVAC maintenance visit.',
    'We booked a seasonal check for the whole system.',
    'We signed up for their maintenance plan last year.',
    'We get a tune-up every fall before the cold sets in.',
    'The tune-up was part of the plan we bought with our new system.',
  ],
  'water-heater': [
    'Our water heater started leaking all over the garage floor.',
    'No hot water in a house with three teenagers is not fun, so we needed the water heater looked at fast.',
    'We switched to a tankless water heater.',
    'The hot water heater was 15 years old and finally gave out.',
    'Our hot water tank was making a popping noise.',
    'The pilot on our water heater kept going out.',
    'We only got about five minutes of hot water out of the water heater.',
  ],
  'drain-cleaning': [
    'Our kitchen drain backed up the night before we had guests coming.',
    'We had a stubborn clog in the main bathroom.',
    'Every drain in the house was gurgling.',
    'The shower drain had been slow for months.',
    'We needed a clogged drain cleared in our basement laundry.',
    'The bathtub drain was completely stopped up.',
    'Our kitchen sink drain kept backing up into the other side.',
  ],
  'plumbing-repair': [
    'We had a burst pipe in the crawl space.',
    'Our toilet kept running and the upstairs sink dripped all night.',
    'We called about a leaky faucet and some plumbing noises in the walls.',
    'Water was coming through the ceiling under the upstairs bathroom, so we needed plumbing help right away.',
    'The pipes under our kitchen sink were leaking.',
    'The toilet in the hall bathroom was rocking and leaking at the base.',
    'Our pipes froze during the cold snap.',
  ],
  'sewer-line': [
    'Sewage was backing up into the basement, so we knew it was the sewer.',
    'They did a camera inspection of our sewer line and found roots.',
    'We needed the main line replaced under the front yard.',
    'Our sewer line collapsed in an older part of {area}.',
    'The sewer kept backing up every few months.',
  ],
  'electrical-repair': [
    'Half the outlets in our kitchen stopped working.',
    'A light switch in the hallway was sparking.',
    'We had some old wiring that needed to be looked at before we sold the house.',
    'The outlet behind the TV was warm to the touch.',
    'We needed some electrical work done in the garage.',
    'The lights flickered every time the dryer ran, so we had the wiring checked.',
    'We wanted a few outlets added in the basement.',
  ],
  'panel-upgrade': [
    'We needed a panel upgrade for our new addition.',
    'Our old breaker panel was a fire hazard according to the home inspector.',
    'We upgraded to 200 amp service before adding a hot tub.',
    'The electrical panel in our 1970s house had to go.',
    'Our insurance company wanted the old breaker panel replaced.',
  ],
  'ev-charger': [
    'We bought an electric car and needed an EV charger in the garage.',
    'Had them install a level 2 charger for our new car.',
    'We wanted a Tesla charger put in on the outside wall.',
    'We needed a car charger installed before our new EV was delivered.',
    'We put in an EV charger for our second car.',
  ],
  'duct-cleaning': [
    'We had the air ducts cleaned after a big renovation.',
    "The ductwork hadn't been cleaned since the house was built.",
    'Our dryer vent was clogged with lint and the dryer took forever.',
    "Allergy season was brutal, so we had the ducts cleaned.",
    'We bought an older house and wanted the ductwork cleaned before moving in.',
  ],
};

/** What the technician did; used for the calmer reviews. */
export const WORK_LINES: Record<string, readonly string[]> = {
  'ac-repair': [
    '{T} replaced a bad capacitor and had it cooling again.',
    '{T} found a clogged condensate line and cleared it.',
    '{T} swapped out the contactor and topped off the refrigerant.',
  ],
  'ac-installation': [
    '{T} pulled the old unit and set the new one in a day.',
    '{T} and the crew replaced the condenser, coil and thermostat.',
  ],
  'furnace-repair': [
    '{T} replaced the flame sensor and cleaned the burners.',
    '{T} found a cracked igniter and swapped it out.',
    '{T} replaced the blower motor.',
  ],
  'heat-pump': [
    '{T} replaced the defrost board.',
    '{T} found a failed reversing valve solenoid.',
    '{T} recharged the system and tightened a loose connection.',
  ],
  'hvac-maintenance': [
    '{T} changed the filter, cleaned the coils and checked the refrigerant.',
    '{T} went through the whole checklist and gave us a written report.',
  ],
  'water-heater': [
    '{T} replaced the thermocouple and flushed the tank.',
    '{T} hauled out the old tank and installed the new one the same afternoon.',
    '{T} replaced the heating element and the thermostat.',
  ],
  'drain-cleaning': [
    '{T} snaked the line and pulled out a huge hair clog.',
    '{T} ran a camera down the line and cleared a grease buildup.',
  ],
  'plumbing-repair': [
    '{T} replaced the fill valve and the flapper.',
    '{T} cut out the damaged section of pipe and put in new PEX.',
    '{T} replaced the cartridge in the faucet and the supply lines.',
  ],
  'sewer-line': [
    '{T} ran a camera and showed us exactly where the roots were.',
    '{T} and the crew dug up the old clay pipe and replaced it with PVC.',
  ],
  'electrical-repair': [
    '{T} traced it to a loose connection in a junction box.',
    '{T} replaced the old switch and a couple of bad receptacles.',
    '{T} found a failed GFCI that was knocking out the whole circuit.',
  ],
  'panel-upgrade': [
    '{T} swapped the old panel for a new 200 amp one and labeled every circuit.',
    '{T} handled the permit and the inspection.',
  ],
  'ev-charger': [
    '{T} ran a new 240 volt circuit to the garage and mounted the charger.',
    '{T} pulled the permit and had it inspected the same week.',
  ],
  'duct-cleaning': [
    '{T} showed us before and after photos of the vents.',
    '{T} cleaned every vent and the return in about three hours.',
  ],
};
