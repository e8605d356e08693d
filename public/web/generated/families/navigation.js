// Navigation by menus, tabs, accordions and breadcrumbs (generator and oracle:
// src/envs/web/generated/families/navigation.ts). Opening an item ends the episode: the goal's
// item, reached on the goal's path, wins.
(function () {
  task.define('navigation', {
    init(data) {
      const start = data.world.start;
      return { view: start === null ? { home: true } : { section: data.world.sections[start].title }, tabs: {} };
    },
    render(app) {
      const { h, ui, world, goal, state } = app;
      const home = () => app.go({ home: true });
      const openItem = (path) => () => {
        const right = goal.kind === 'quick' ? path.length === 1 && path[0] === goal.item
          : path.length === 4 && path[0] === goal.section && path[1] === goal.tab && path[2] === goal.group && path[3] === goal.item;
        app.end(right ? 1 : 0);
        app.go({ item: path });
      };
      if (app.view.item) {
        const path = app.view.item;
        return [ui.breadcrumbs([{ label: world.home, pick: home }, ...(path.length > 1 ? [{ label: path[0], pick: () => app.go({ section: path[0] }) }] : [])], path[path.length - 1]),
          h('h1', {}, path[path.length - 1]), h('p', {}, 'This page is open.')];
      }
      if (app.view.section) {
        const section = world.sections.find((s) => s.title === app.view.section);
        const current = state.tabs[section.title] || section.tabs[0].title;
        const tab = section.tabs.find((t) => t.title === current);
        return [
          ui.breadcrumbs([{ label: world.home, pick: home }], section.title),
          h('h1', {}, section.title),
          ui.tabs(section.tabs.map((t) => t.title), current, (name) => { state.tabs[section.title] = name; task.open = []; app.refresh(); }),
          h('div', { role: ui.style === 'aria' ? 'tabpanel' : null, class: 'panel' },
            h('h2', {}, current),
            tab.groups.map((group) => ui.section(group.title, h('ul', {}, group.items.map((item) => h('li', {}, ui.link(item, openItem([section.title, current, group.title, item])))))))),
        ];
      }
      const sections = world.sections.map((s) => ({ label: s.title, pick: () => app.go({ section: s.title }) }));
      return [
        h('h1', {}, world.home),
        world.top === 'menu' ? ui.menu('Menu', sections) : h('nav', { class: 'bar' }, sections.map((s) => ui.link(s.label, s.pick)), ' '),
        h('h2', {}, 'Quick links'),
        h('ul', {}, world.quick.map((item) => h('li', {}, ui.link(item, openItem([item]))))),
      ];
    },
  });
})();
