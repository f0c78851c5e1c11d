// What the web client adds to the browser's window: the end-to-end test's hook (web/js/app.js).
interface Window {
  __romirami: any;
}
