/**
 * Stripe.js for browser tests: a fake served in place of https://js.stripe.com that satisfies
 * @stripe/react-stripe-js and confirms payments through the fake Stripe API (tests/support/fake-stripe.mjs)
 * that the server talks to.
 */

const stripeError = (message) => ({ error: { type: "invalid_request_error", message } });

/** The fake Stripe.js: enough of Stripe() for Elements, the Payment Element and confirmPayment. */
export const FAKE_STRIPE_JS = `
(function () {
  function intentId(secret) { return String(secret).split("_secret_")[0]; }
  function Stripe(publishableKey) {
    var created = [];
    function makeElement(type, options) {
      var node = null;
      var handlers = {};
      var element = {
        mount: function (target) {
          node = typeof target === "string" ? document.querySelector(target) : target;
          node.innerHTML = '<div class="fake-stripe-element" data-element-type="' + type + '" data-layout="' + ((options && options.layout) || "") + '">' +
            '<label style="display:grid;gap:.35rem;color:#f3ece4;font-size:.9rem">Card number (Stripe)' +
            '<input name="fake-stripe-card" inputmode="numeric" style="min-height:44px;padding:.6rem;border-radius:8px;border:1px solid #5a1e27;background:#160a0d;color:#f3ece4"></label></div>';
          setTimeout(function () { (handlers.ready || []).forEach(function (h) { h({ elementType: type }); }); }, 0);
        },
        on: function (event, handler) { (handlers[event] = handlers[event] || []).push(handler); return element; },
        off: function (event, handler) { handlers[event] = (handlers[event] || []).filter(function (h) { return h !== handler; }); return element; },
        update: function () {},
        destroy: function () { if (node) node.innerHTML = ""; },
        unmount: function () { if (node) node.innerHTML = ""; },
        focus: function () {}, blur: function () {}, clear: function () {}, collapse: function () {}
      };
      created.push({ type: type, element: element });
      window.__fakeStripe.elementOptions.push({ type: type, options: options || {} });
      return element;
    }
    var elements = function (options) {
      window.__fakeStripe.elementsOptions = options;
      return {
        create: makeElement,
        getElement: function (type) { var found = created.filter(function (c) { return c.type === type; })[0]; return found ? found.element : null; },
        update: function () {},
        submit: function () { return Promise.resolve({}); },
        fetchUpdates: function () { return Promise.resolve({}); }
      };
    };
    function api(path, init) {
      return fetch("https://api.stripe.com/v1/" + path, init).then(function (r) { return r.json(); });
    }
    return {
      elements: elements,
      retrievePaymentIntent: function (clientSecret) {
        return api("payment_intents/" + intentId(clientSecret) + "?client_secret=" + encodeURIComponent(clientSecret)).then(function (body) {
          return body.error ? { error: body.error } : { paymentIntent: body };
        });
      },
      confirmPayment: function (args) {
        window.__fakeStripe.confirmCalls.push({ confirmParams: args.confirmParams, redirect: args.redirect, hasElements: !!args.elements });
        var input = document.querySelector('[name="fake-stripe-card"]');
        var secret = args.elements && window.__fakeStripe.elementsOptions ? window.__fakeStripe.elementsOptions.clientSecret : args.clientSecret;
        return api("payment_intents/" + intentId(secret) + "/confirm", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ card: input ? input.value : "", receipt_email: args.confirmParams && args.confirmParams.receipt_email })
        }).then(function (body) { return body.error ? { error: body.error } : { paymentIntent: body }; });
      },
      createToken: function () { return Promise.resolve({}); },
      createPaymentMethod: function () { return Promise.resolve({}); },
      confirmCardPayment: function () { return Promise.resolve({}); },
      _registerWrapper: function () {},
      registerAppInfo: function () {}
    };
  }
  Stripe.version = "endive";
  window.__fakeStripe = { elementsOptions: null, elementOptions: [], confirmCalls: [] };
  window.Stripe = Stripe;
})();
`;

/**
 * Serves the fake Stripe.js for https://js.stripe.com and answers the fake's calls to https://api.stripe.com
 * from `fake`. Returns the Stripe.js URLs the page asked for.
 * @param {import("playwright-core").BrowserContext | import("playwright-core").Page} target
 * @param {import("../../support/fake-stripe.mjs").FakeStripe} fake
 */
export async function routeStripe(target, fake) {
  const scriptRequests = [];
  await target.route("https://js.stripe.com/**", (route) => {
    scriptRequests.push(route.request().url());
    return route.fulfill({ status: 200, contentType: "application/javascript", body: FAKE_STRIPE_JS });
  });
  await target.route("https://api.stripe.com/**", async (route) => {
    const url = new URL(route.request().url());
    const confirm = /^\/v1\/payment_intents\/([^/]+)\/confirm$/.exec(url.pathname);
    const retrieve = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
    const cors = { "access-control-allow-origin": "*", "access-control-allow-headers": "content-type" };
    if (route.request().method() === "OPTIONS") return route.fulfill({ status: 204, headers: cors });
    /** @type {{ status: number, body: unknown }} */
    let result = { status: 404, body: stripeError("Unrecognized request URL") };
    if (confirm) {
      const { card, receipt_email: email } = JSON.parse(route.request().postData() ?? "{}");
      result = fake.confirm(decodeURIComponent(confirm[1]), card, email);
    } else if (retrieve) {
      const intent = fake.intents.get(decodeURIComponent(retrieve[1]));
      const secret = url.searchParams.get("client_secret");
      result = intent && intent.client_secret === secret ? { status: 200, body: intent } : { status: 404, body: stripeError("No such payment_intent") };
    }
    return route.fulfill({ status: result.status, contentType: "application/json", headers: cors, body: JSON.stringify(result.body) });
  });
  return scriptRequests;
}
