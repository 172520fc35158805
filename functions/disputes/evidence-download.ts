// An evidence file's name on its way out (the download's Content-Disposition) and the check on its way in, so a name
// never becomes a card number (PCI DSS 3.4.1, decision 031): the ASCII fallback turns every other character into "_",
// which joins digits a letter kept apart ("4111ɔ1111ɔ1111ɔ1111" would be "4111_1111_1111_1111"), and the stored
// name drops control characters, quotes and a path, which can join digits too.
import { looksLikeCardNumber, maskDigits } from "../card-numbers/card-numbers";
import { cleanFileName, EXTENSION_OF, type EvidenceType } from "./evidence";

/** `filename=` for old clients: ASCII word characters, dots and dashes; anything else is "_". */
const asciiFallback = (name: string) => name.replace(/[^\w.-]/g, "_");

/**
 * Whether a file name, as chosen, as it would be stored, or as its ASCII fallback, holds what looks like a card
 * number: the upload refuses such a name (the dispute's page and POST /api/v1/disputes/{id}/evidence).
 */
export function fileNameHoldsCardNumber(name: string): boolean {
  const stored = cleanFileName(name);
  return [name, stored, asciiFallback(stored)].some(looksLikeCardNumber);
}

/** A name that reads as a card number in any form the header carries: as chosen, its ASCII fallback, or encoded. */
const holdsCardNumber = (name: string) => [name, asciiFallback(name), encodeURIComponent(name)].some(looksLikeCardNumber);

/**
 * `filename=` in ASCII for old clients, `filename*=` in UTF-8 for the name as it was chosen (Ɔ, Ɛ, Arabic script...).
 * A name kept before the upload refused such names, or one the fallback or the encoding would make into a card
 * number, goes out with its digits written "#" (or, should even that read as one, as "evidence" and its extension).
 */
export function contentDisposition(fileName: string, type: EvidenceType): string {
  const extension = EXTENSION_OF[type];
  const named = fileName.toLowerCase().endsWith(extension) ? fileName : `${fileName}${extension}`;
  const masked = maskDigits(named);
  const name = !holdsCardNumber(named) ? named : !holdsCardNumber(masked) ? masked : `evidence${extension}`;
  return `attachment; filename="${asciiFallback(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
