// A pocket-sized jQuery look-alike, as many older sites carry: $(selector) wraps the matches,
// .on(event, [childSelector], handler) binds (delegated when a child selector is given).
(function () {
  function Wrapped(nodes) {
    this.nodes = nodes;
    this.length = nodes.length;
  }
  Wrapped.prototype.each = function (fn) {
    this.nodes.forEach(function (node, i) { fn.call(node, i, node); });
    return this;
  };
  Wrapped.prototype.on = function (event, child, handler) {
    if (typeof child === 'function') {
      handler = child;
      child = null;
    }
    return this.each(function () {
      this.addEventListener(event, function (e) {
        if (!child) return handler.call(this, e);
        var hit = e.target.closest(child);
        if (hit && this.contains(hit)) handler.call(hit, e);
      });
    });
  };
  Wrapped.prototype.show = function () { return this.each(function () { this.style.display = ''; }); };
  Wrapped.prototype.hide = function () { return this.each(function () { this.style.display = 'none'; }); };
  Wrapped.prototype.toggle = function () {
    return this.each(function () { this.style.display = this.style.display === 'none' ? '' : 'none'; });
  };
  Wrapped.prototype.text = function (value) {
    if (value === undefined) return this.nodes[0] ? this.nodes[0].textContent : '';
    return this.each(function () { this.textContent = value; });
  };
  Wrapped.prototype.html = function (value) {
    return this.each(function () { this.innerHTML = value; });
  };
  Wrapped.prototype.addClass = function (name) { return this.each(function () { this.classList.add(name); }); };
  Wrapped.prototype.removeClass = function (name) { return this.each(function () { this.classList.remove(name); }); };
  window.$ = function (selector) {
    if (typeof selector !== 'string') return new Wrapped([selector]);
    return new Wrapped(Array.prototype.slice.call(document.querySelectorAll(selector)));
  };
})();
