/**
 * The domains a generated app speaks of: each gives the words an app of any family is made of (its
 * records and their fields, its sections, its catalogue, its message topics, its preferences).
 * Names of people and things are entities: train and test instances draw them from disjoint halves
 * (entities.ts). The fields' option lists are the app's own vocabulary and are shared by both.
 */

export const DOMAIN_IDS = ['clinic', 'library', 'travel', 'hr', 'banking', 'school'] as const;
export type DomainId = (typeof DOMAIN_IDS)[number];

/** A field of a domain's record: chosen from options, typed as text, a number, or a yes/no. */
export type FieldSpec =
  | { label: string; kind: 'choice'; options: readonly string[] }
  | { label: string; kind: 'text'; values: readonly string[] }
  | { label: string; kind: 'number'; min: number; max: number }
  | { label: string; kind: 'flag' };

export interface Domain {
  id: DomainId;
  /** The app's name is one of these after a word (`Maple Clinic`). */
  appKinds: readonly string[];
  /** What one record is (`patient`) and what a list of them is called (`Patients`). */
  noun: string;
  plural: string;
  /** Record keys: people's names, or these things (split into halves by entities.ts). */
  keys: 'people' | readonly string[];
  fields: readonly FieldSpec[];
  /** Navigation: sections, each with pages. */
  sections: readonly string[];
  pages: readonly string[];
  /** A shop of the domain: its item kinds, and the option every item is bought in. */
  catalog: { kinds: readonly string[]; option: string; values: readonly string[] };
  /** What messages are about. */
  topics: readonly string[];
  /** Preferences of the domain's app, beside the common ones. */
  switches: readonly string[];
  choices: readonly { label: string; options: readonly string[] }[];
}

export const DOMAINS: Readonly<Record<DomainId, Domain>> = {
  clinic: {
    id: 'clinic', appKinds: ['Clinic', 'Health Centre', 'Medical Practice'], noun: 'patient', plural: 'Patients', keys: 'people',
    fields: [
      { label: 'Ward', kind: 'choice', options: ['Cardiology', 'Pediatrics', 'Oncology', 'Radiology', 'Neurology'] },
      { label: 'Status', kind: 'choice', options: ['Admitted', 'Discharged', 'Waiting', 'Referred'] },
      { label: 'Doctor', kind: 'text', values: ['Dr Amani', 'Dr Lind', 'Dr Okoro', 'Dr Petit', 'Dr Sato', 'Dr Vance'] },
      { label: 'Room', kind: 'number', min: 100, max: 450 },
      { label: 'Allergies noted', kind: 'flag' },
    ],
    sections: ['Patients', 'Appointments', 'Prescriptions', 'Billing', 'Staff'],
    pages: ['Overview', 'Schedule', 'Lab results', 'Referrals', 'Invoices', 'Rota', 'Reports', 'Archive'],
    catalog: { kinds: ['bandage pack', 'thermometer', 'face masks', 'hand gel', 'pill organiser', 'heat pad'], option: 'Pack size', values: ['Single', 'Pack of 5', 'Pack of 10'] },
    topics: ['test results', 'appointment', 'prescription', 'referral', 'vaccination', 'follow-up'],
    switches: ['Appointment reminders', 'Share records with GP', 'Lab result alerts'],
    choices: [{ label: 'Preferred clinic', options: ['North site', 'South site', 'City centre'] }],
  },
  library: {
    id: 'library', appKinds: ['Library', 'Book Club', 'Reading Room'], noun: 'book', plural: 'Books',
    keys: ['Winter Tides', 'The Glass Orchard', 'Paper Moons', 'A Quiet Harbour', 'Salt and Cedar', 'The Last Lantern', 'Copper Skies', 'North of Nowhere', 'The Velvet Map', 'Seven Rivers', 'Hollow Pines', 'The Amber Door', 'Iron Meadow', 'The Silent Atlas', 'Fable of Foxes', 'Marble Gardens', 'The Long Thaw', 'Distant Bells', 'The Clockmaker', 'Violet Hours', 'Stone Letters', 'The Hidden Stair', 'Ember Roads', 'Garnet Bay'],
    fields: [
      { label: 'Genre', kind: 'choice', options: ['Fiction', 'History', 'Science', 'Poetry', 'Travel'] },
      { label: 'Shelf', kind: 'choice', options: ['A1', 'A2', 'B1', 'B2', 'C1'] },
      { label: 'Author', kind: 'text', values: ['M. Ortega', 'J. Keller', 'R. Banerjee', 'S. Novak', 'L. Mensah', 'T. Arnaud'] },
      { label: 'Copies', kind: 'number', min: 1, max: 12 },
      { label: 'Reference only', kind: 'flag' },
    ],
    sections: ['Catalogue', 'Loans', 'Members', 'Events', 'Acquisitions'],
    pages: ['Overview', 'New arrivals', 'Overdue', 'Holds', 'Renewals', 'Calendar', 'Donations', 'Reports'],
    catalog: { kinds: ['tote bag', 'bookmark set', 'reading lamp', 'notebook', 'book stand', 'gift card'], option: 'Colour', values: ['Red', 'Green', 'Blue', 'Black'] },
    topics: ['overdue loan', 'hold ready', 'reading group', 'membership', 'book donation', 'event booking'],
    switches: ['Due date reminders', 'Hold pickup alerts', 'Reading history'],
    choices: [{ label: 'Home branch', options: ['Central', 'Riverside', 'Hillcrest'] }],
  },
  travel: {
    id: 'travel', appKinds: ['Travel', 'Tours', 'Getaways'], noun: 'booking', plural: 'Bookings', keys: 'people',
    fields: [
      { label: 'Destination', kind: 'choice', options: ['Lisbon', 'Kyoto', 'Nairobi', 'Oslo', 'Lima', 'Hanoi'] },
      { label: 'Cabin', kind: 'choice', options: ['Economy', 'Premium', 'Business', 'First'] },
      { label: 'Hotel', kind: 'text', values: ['Harbour Inn', 'Grand Palms', 'Casa Azul', 'Fjord Lodge', 'Sakura House', 'Savanna Rest'] },
      { label: 'Nights', kind: 'number', min: 1, max: 21 },
      { label: 'Travel insurance', kind: 'flag' },
    ],
    sections: ['Trips', 'Flights', 'Hotels', 'Car hire', 'Support'],
    pages: ['Overview', 'Itinerary', 'Check-in', 'Baggage', 'Seat map', 'Vouchers', 'Refunds', 'Documents'],
    catalog: { kinds: ['city pass', 'airport transfer', 'museum ticket', 'boat tour', 'travel adapter', 'luggage tag'], option: 'Travellers', values: ['1 adult', '2 adults', 'Family'] },
    topics: ['flight change', 'hotel booking', 'visa', 'refund', 'seat upgrade', 'lost baggage'],
    switches: ['Price alerts', 'Flight status texts', 'Save passport details'],
    choices: [{ label: 'Home airport', options: ['LHR', 'CDG', 'JFK', 'NRT'] }],
  },
  hr: {
    id: 'hr', appKinds: ['People', 'HR Portal', 'Staff Hub'], noun: 'employee', plural: 'Employees', keys: 'people',
    fields: [
      { label: 'Department', kind: 'choice', options: ['Finance', 'Sales', 'Engineering', 'Legal', 'Support'] },
      { label: 'Contract', kind: 'choice', options: ['Full time', 'Part time', 'Contractor', 'Intern'] },
      { label: 'Manager', kind: 'text', values: ['Ines Park', 'Olu Bakare', 'Mira Holm', 'Tariq Aziz', 'Jo Lindqvist', 'Ana Ruiz'] },
      { label: 'Leave days', kind: 'number', min: 0, max: 30 },
      { label: 'Remote worker', kind: 'flag' },
    ],
    sections: ['Directory', 'Leave', 'Payroll', 'Recruiting', 'Training'],
    pages: ['Overview', 'Requests', 'Approvals', 'Payslips', 'Openings', 'Candidates', 'Courses', 'Policies'],
    catalog: { kinds: ['desk chair', 'monitor arm', 'headset', 'standing mat', 'laptop bag', 'webcam'], option: 'Delivery to', values: ['Office', 'Home'] },
    topics: ['leave request', 'payslip', 'onboarding', 'performance review', 'expense claim', 'training course'],
    switches: ['Approval notifications', 'Show birthdays', 'Weekly digest'],
    choices: [{ label: 'Work week', options: ['Mon to Fri', 'Sun to Thu', 'Flexible'] }],
  },
  banking: {
    id: 'banking', appKinds: ['Bank', 'Credit Union', 'Savings'], noun: 'account', plural: 'Accounts', keys: 'people',
    fields: [
      { label: 'Account type', kind: 'choice', options: ['Current', 'Savings', 'Joint', 'Business'] },
      { label: 'Branch', kind: 'choice', options: ['Market Street', 'Old Town', 'Docklands', 'Parkside'] },
      { label: 'Reference', kind: 'text', values: ['Rent', 'Groceries', 'Utilities', 'Tuition', 'Gym', 'Holiday fund'] },
      { label: 'Balance', kind: 'number', min: 10, max: 9900 },
      { label: 'Paperless', kind: 'flag' },
    ],
    sections: ['Accounts', 'Payments', 'Cards', 'Loans', 'Help'],
    pages: ['Overview', 'Statements', 'Standing orders', 'Payees', 'Limits', 'Rates', 'Disputes', 'Documents'],
    catalog: { kinds: ['debit card', 'card reader', 'cheque book', 'coin bank', 'travel wallet', 'security key'], option: 'Design', values: ['Classic', 'Green', 'Metal'] },
    topics: ['card payment', 'overdraft', 'statement', 'loan offer', 'fraud alert', 'new payee'],
    switches: ['Spending alerts', 'Round-up savings', 'Contactless payments'],
    choices: [{ label: 'Statement frequency', options: ['Monthly', 'Quarterly', 'Yearly'] }],
  },
  school: {
    id: 'school', appKinds: ['School', 'Academy', 'College'], noun: 'student', plural: 'Students', keys: 'people',
    fields: [
      { label: 'Class', kind: 'choice', options: ['7A', '7B', '8A', '8B', '9A', '9B'] },
      { label: 'Subject', kind: 'choice', options: ['Maths', 'Biology', 'History', 'Art', 'Music', 'French'] },
      { label: 'Guardian', kind: 'text', values: ['Mrs Dube', 'Mr Alvarez', 'Ms Kaur', 'Mr Nowak', 'Mrs Chen', 'Mr Idowu'] },
      { label: 'Grade', kind: 'number', min: 40, max: 100 },
      { label: 'Free meals', kind: 'flag' },
    ],
    sections: ['Students', 'Timetable', 'Homework', 'Exams', 'Clubs'],
    pages: ['Overview', 'Attendance', 'Reports', 'Assignments', 'Results', 'Rooms', 'Trips', 'Notices'],
    catalog: { kinds: ['uniform jumper', 'sports kit', 'lunch box', 'calculator', 'art set', 'school bag'], option: 'Size', values: ['Small', 'Medium', 'Large'] },
    topics: ['homework', 'school trip', 'parents evening', 'exam timetable', 'absence', 'club sign-up'],
    switches: ['Homework reminders', 'Absence texts', 'Newsletter'],
    choices: [{ label: 'Contact by', options: ['E-mail', 'Text message', 'Phone call'] }],
  },
};

/** Words an app's name starts with (`Maple Clinic`): drawn for any split, they name the app, not an entity. */
export const APP_WORDS = ['Maple', 'Harbor', 'Summit', 'Cedar', 'Willow', 'Granite', 'Meadow', 'Beacon', 'Riverside', 'Orchard', 'Lakeside', 'Northwind', 'Juniper', 'Aspen', 'Copper', 'Silverline'];

export const FIRST_NAMES = ['Alice', 'Bruno', 'Chen', 'Dara', 'Emeka', 'Fatima', 'Goran', 'Hana', 'Ivan', 'Jun', 'Kofi', 'Lena', 'Mateo', 'Nadia', 'Omar', 'Priya', 'Quinn', 'Rosa', 'Sami', 'Tomas', 'Uma', 'Viktor', 'Wei', 'Yara', 'Zane', 'Amara', 'Bjorn', 'Carla'];
export const LAST_NAMES = ['Abara', 'Berg', 'Costa', 'Dahl', 'Eze', 'Fontaine', 'Garcia', 'Haddad', 'Ito', 'Jensen', 'Kowalski', 'Larsen', 'Moreau', 'Nakamura', 'Okafor', 'Petrov', 'Quispe', 'Rossi', 'Santos', 'Tanaka', 'Usman', 'Varga', 'Weber', 'Xu', 'Yilmaz', 'Zhou'];
/** Words typed into messages and notes; entities too (each split has its own half). */
export const NOTE_WORDS = ['amber', 'basil', 'cobalt', 'delta', 'ember', 'fjord', 'garnet', 'harbor', 'indigo', 'jasper', 'kestrel', 'lilac', 'marble', 'nectar', 'olive', 'pepper', 'quartz', 'raven', 'saffron', 'thistle', 'umber', 'violet', 'walnut', 'yarrow'];

/** Preferences every app has, whatever its domain. */
export const COMMON_SWITCHES = ['Email notifications', 'Dark mode', 'Two-step sign-in', 'Compact view', 'Autoplay videos', 'Marketing e-mails'];
export const COMMON_CHOICES = [
  { label: 'Language', options: ['English', 'Français', 'Español', 'Deutsch'] },
  { label: 'Time zone', options: ['UTC', 'UTC+1', 'UTC+8', 'UTC-5'] },
  { label: 'Date format', options: ['DD/MM/YYYY', 'MM/DD/YYYY', 'YYYY-MM-DD'] },
];
