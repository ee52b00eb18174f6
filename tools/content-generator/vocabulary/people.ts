/** Names for review authors, a mix typical of a Southern US metro. */

export const FIRST_NAMES: readonly string[] = [
  'Maria', 'James', 'Linda', 'Robert', 'Patricia', 'John', 'Jennifer', 'David', 'Elizabeth', 'William',
  'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Karen', 'Christopher', 'Nancy', 'Daniel',
  'Lisa', 'Matthew', 'Betty', 'Anthony', 'Sandra', 'Mark', 'Ashley', 'Donald', 'Kimberly', 'Steven',
  'Emily', 'Paul', 'Donna', 'Andrew', 'Michelle', 'Joshua', 'Carol', 'Kenneth', 'Amanda', 'Brian',
  'Melissa', 'George', 'Deborah', 'Timothy', 'Stephanie', 'Ronald', 'Rebecca', 'Jason', 'Laura', 'Ryan',
  'Sharon', 'Gary', 'Cynthia', 'Nicholas', 'Kathleen', 'Eric', 'Amy', 'Jonathan', 'Angela', 'Larry',
  'Shirley', 'Justin', 'Brenda', 'Scott', 'Pamela', 'Brandon', 'Nicole', 'Benjamin', 'Anna', 'Samuel',
  'Tamika', 'DeShawn', 'Keisha', 'Marcus', 'Latoya', 'Andre', 'Jasmine', 'Terrence', 'Ebony', 'Tyrone',
  'Guadalupe', 'Jose', 'Rosa', 'Carlos', 'Ana', 'Miguel', 'Lucia', 'Alejandro', 'Sofia', 'Javier',
  'Thanh', 'Minh', 'Linh', 'Wei', 'Mei', 'Hiroshi', 'Yuki', 'Raj', 'Anjali', 'Vikram',
  'Bobby', 'Tammy', 'Billy Ray', 'Peggy', 'Dwayne', 'Crystal', 'Cody', 'Brittany', 'Dustin', 'Heather',
  'Olivia', 'Ethan', 'Chloe', 'Logan', 'Madison', 'Caleb', 'Hannah', 'Wyatt', 'Abigail', 'Hunter',
];

export const LAST_NAMES: readonly string[] = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez',
  'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin',
  'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson',
  'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores',
  'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts',
  'Tran', 'Pham', 'Patel', 'Shah', 'Chen', 'Wang', 'Kim', 'Park', 'Tanaka', 'Singh',
  'Whitaker', 'McMahan', 'Cantrell', 'Huskey', 'Ogle', 'Maples', 'Rutherford', 'Tipton', 'Burchett', 'Lowe',
  'Greer', 'Cooper', 'Reed', 'Bailey', 'Bell', 'Murphy', 'Howard', 'Ward', 'Cox', 'Richardson',
];
