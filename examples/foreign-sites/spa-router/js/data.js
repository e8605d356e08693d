// Seeded demo data for the admin: customers, products, orders.
window.makeStore = function (seed) {
  let a = (seed * 2654435761 + 99991) >>> 0;
  const random = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (list) => list[Math.floor(random() * list.length)];
  const shuffle = (list) => {
    const out = list.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };
  const CUSTOMERS = ['Maria Silva', 'Jonas Berg', 'Aiko Tanaka', 'Omar Haddad', 'Lena Fischer', 'Pierre Martin', 'Sofia Rossi', 'Noah Clark', 'Ines Duarte', 'Tomasz Nowak'];
  const PRODUCTS = [
    ['Desk lamp', 34], ['Wool blanket', 59], ['Coffee grinder', 45], ['Notebook set', 12], ['Water bottle', 18],
    ['Ceramic mug', 9], ['Phone stand', 15], ['Yoga mat', 27], ['Backpack', 64], ['Plant pot', 11], ['Wall clock', 29], ['Tea kettle', 38],
  ];
  const products = shuffle(PRODUCTS).slice(0, 6).map(([name, price], i) => ({ id: 100 + Math.floor(random() * 800) + i * 1000, name, price }));
  const STATUSES = ['Pending', 'Paid', 'Paid', 'Pending'];
  let orderId = 1000 + Math.floor(random() * 8000);
  const orders = shuffle(CUSTOMERS).slice(0, 6).map((customer) => ({
    id: (orderId += 1 + Math.floor(random() * 5)),
    customer,
    total: 10 + Math.floor(random() * 190),
    status: pick(STATUSES),
  }));
  const TOPICS = ['Order updates', 'Weekly report', 'Product reviews', 'Low stock alerts', 'Newsletter', 'Security alerts'];
  const notifications = Object.fromEntries(TOPICS.map((t) => [t, random() < 0.5]));
  return { random, pick, shuffle, products, orders, notifications, cart: [] };
};
