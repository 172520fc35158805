// The demo identities of DESIGN.md section 8, as data-layer tenants.
import type { RequestMeta, Tenant } from "../../functions/data/tenant";

export const KUMASI = "bus_kumasi_fresh_foods";
export const ACCRA = "bus_accra_mobile_pay";

export const AMA_KUMASI: Tenant = { businessId: KUMASI, userId: "usr_ama_mensah", role: "Super Administrator" };
export const KOFI_KUMASI: Tenant = { businessId: KUMASI, userId: "usr_kofi_boateng", role: "Administrator" };
export const ESI_KUMASI: Tenant = { businessId: KUMASI, userId: "usr_esi_owusu", role: "Operations" };
export const ABENA_KUMASI: Tenant = { businessId: KUMASI, userId: "usr_abena_darko", role: "Finance" };
export const AMA_ACCRA: Tenant = { businessId: ACCRA, userId: "usr_ama_mensah", role: "Administrator" };
export const YAW_ACCRA: Tenant = { businessId: ACCRA, userId: "usr_yaw_asante", role: "Viewer" };

export const META: RequestMeta = { ip: "198.51.100.7", userAgent: "Mozilla/5.0 (integration test)", requestId: "TEST-0000-0001" };
