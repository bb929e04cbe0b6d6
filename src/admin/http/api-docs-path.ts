/** The OpenAPI explorer's path; the document is at `${API_DOCS_PATH}-json` (and -yaml). */
export const API_DOCS_PATH = 'api/docs';
