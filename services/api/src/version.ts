/** The server API version sent in every response's MM-API-Version header (live-operations §1). */
export const API_VERSION = '0.1.0';
