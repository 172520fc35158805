/** At this width or less the portal uses its mobile layout (SPEC section 9). */
export const MOBILE_MAX_WIDTH = 980;
export const MOBILE_MEDIA_QUERY = `(max-width: ${MOBILE_MAX_WIDTH}px)`;

export function isMobileWidth(width: number): boolean {
  return width <= MOBILE_MAX_WIDTH;
}
