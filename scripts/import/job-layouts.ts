/**
 * The job exports `npm run import -- jobs` knows, by the headers their CSV files carry (as we know the tools'
 * exports when this was written: Housecall Pro documents its columns, Jobber's and ServiceTitan's reports let
 * the owner pick them; a renamed column is mapped with `--column`). A layout
 * names only the columns a job is made of: the customer's name, address lines other than the city,
 * telephone, e-mail and the totals are never read (docs/import.md "Jobs").
 *
 * A file is recognised by its completion-date header, which the three tools name each in their own way;
 * any other file is read as a CSV with mapped columns. Adding an export is one row in JOB_LAYOUTS
 * (formats.ts).
 */

/** What a job is read from: its number, completion date and service (required), the technician, and the area or an address to read the city from. */
export const JOB_COLUMNS = ['id', 'completed', 'service', 'technician', 'area', 'address'] as const;
export type JobColumn = (typeof JOB_COLUMNS)[number];

export type JobLayout = {
  /** How messages name it: "a Jobber export". */
  label: string;
  /** The headers each column is found under, best first (compared without case, spaces or punctuation). */
  headers: Record<JobColumn, readonly string[]>;
};

/** Jobber's Jobs report (Reports → Jobs, Export CSV). "Service street" holds no city and is not read. */
export const jobberLayout: JobLayout = {
  label: 'a Jobber export',
  headers: {
    id: ['Job #', 'Job number'],
    completed: ['Completed date', 'Closed', 'Closed date', 'Job completed date'],
    service: ['Title', 'Job title'],
    technician: ['Visits assigned to', 'Assigned to', 'Team'],
    area: ['Service city', 'City'],
    address: ['Service address', 'Property address'],
  },
};

/** Housecall Pro's job export (Reporting → Jobs, export): by job or invoice number. */
export const housecallProLayout: JobLayout = {
  label: 'a Housecall Pro export',
  headers: {
    id: ['Job #', 'Job number', 'Invoice #', 'Invoice number'],
    completed: ['Job completed', 'Finished at', 'Job completed date', 'Finished'],
    service: ['Job type', 'Job description', 'Description', 'Tags', 'Job tags'],
    technician: ['Employees', 'Assigned employees', 'Employee'],
    area: ['City', 'Service city'],
    address: ['Address', 'Service address'],
  },
};

/** ServiceTitan's Jobs report (a custom report from the Jobs template, exported). */
export const serviceTitanLayout: JobLayout = {
  label: 'a ServiceTitan export',
  headers: {
    id: ['Job #', 'Job number', 'Job ID'],
    completed: ['Completed On', 'Completion Date', 'Job Completion Date'],
    service: ['Job Type', 'Business Unit'],
    technician: ['Primary Technician', 'Technician(s)', 'Technicians', 'Assigned Technicians'],
    area: ['Location City', 'City'],
    address: ['Location Address', 'Service Address'],
  },
};

/** Any other CSV: these usual headers, and whatever `--column` or a mapping file names. */
export const mappedCsvLayout: JobLayout = {
  label: 'a CSV with mapped columns',
  headers: {
    id: ['Job ID', 'Job #', 'Job number', 'Job no', 'ID', 'Work order', 'Work order number', 'Invoice #', 'Invoice number'],
    completed: ['Completed', 'Completed date', 'Completed on', 'Completion date', 'Date completed', 'Finished', 'Closed', 'Date'],
    service: ['Service', 'Service ID', 'Job type', 'Type', 'Title'],
    technician: ['Technician', 'Tech', 'Technicians', 'Employee', 'Assigned to'],
    area: ['Area', 'Service area', 'City', 'Town'],
    address: ['Address', 'Service address', 'Job address'],
  },
};
