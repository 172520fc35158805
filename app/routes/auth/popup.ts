// The sign-in popup's window (SPEC section 9: a default size when the given one
// is invalid). Pure, so the rules are unit-tested.

export interface PopupSize {
  width: number;
  height: number;
}

export const DEFAULT_POPUP_SIZE: PopupSize = { width: 483, height: 600 };

/** A window smaller than this cannot show a provider's sign-in page. */
const MIN_SIDE = 200;
const MAX_SIDE = 4000;

/** "WIDTHxHEIGHT" (or a size object) when both sides are whole pixels in range; otherwise 483x600. */
export function popupSize(given: string | PopupSize | null | undefined): PopupSize {
  let width: number;
  let height: number;
  if (typeof given === "string") {
    const match = /^\s*(\d{1,5})\s*[xX×]\s*(\d{1,5})\s*$/.exec(given);
    if (!match) return DEFAULT_POPUP_SIZE;
    width = Number(match[1]);
    height = Number(match[2]);
  } else if (given && typeof given === "object") {
    ({ width, height } = given);
  } else {
    return DEFAULT_POPUP_SIZE;
  }
  const usable = (side: number) => Number.isInteger(side) && side >= MIN_SIDE && side <= MAX_SIDE;
  return usable(width) && usable(height) ? { width, height } : DEFAULT_POPUP_SIZE;
}

export interface ScreenBox {
  /** The opener window's position and outer size (window.screenX/Y, outerWidth/Height). */
  left: number;
  top: number;
  width: number;
  height: number;
}

/** window.open features: the popup centred over the opener. */
export function popupFeatures(size: PopupSize, over: ScreenBox): string {
  const left = Math.max(0, Math.round(over.left + (over.width - size.width) / 2));
  const top = Math.max(0, Math.round(over.top + (over.height - size.height) / 2));
  return `popup=yes,width=${size.width},height=${size.height},left=${left},top=${top}`;
}
