// Steps several browser tests take, written once.

// register signs a new account up through the form and waits for the
// dashboard (the first account on a server is its operator).
export async function register(page, name, email, password = 'correct horse battery') {
  await page.goto('/register');
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/dashboard');
}

// confirmIn answers one of the app's own confirmation dialogs (it never
// uses the browser's native ones) with its confirm button, and waits for
// the dialog to close.
export async function confirmIn(page, title, button) {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.getByRole('button', { name: button }).click();
  await dialog.waitFor({ state: 'detached' });
}

// placeConfirmed presses the form's submit button (BUY/SELL and the
// symbol) and confirms the order in the Confirm Order dialog.
export async function placeConfirmed(page, scope, side, symbol = 'BTC-USD') {
  await scope.getByRole('button', { name: `${side} ${symbol}` }).click();
  await confirmIn(page, 'Confirm Order', `Confirm ${side}`);
}

// bell is the header's alert bell that shows at the page's width (the
// header has one for wide screens and one beside the phone menu).
export function bell(page) {
  return page.locator('[data-testid="alert-bell"]:visible');
}

// openAlerts opens the alerts drawer from the bell and returns it.
export async function openAlerts(page) {
  await bell(page).click();
  const drawer = page.getByRole('dialog', { name: 'System alerts' });
  await drawer.waitFor();
  return drawer;
}
