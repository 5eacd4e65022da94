import { getToken } from './auth-token';
import { ApiError } from './errors';

export interface UploadProgress {
  loaded: number;
  total: number;
}

function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * POSTs a multipart form with upload progress, which fetch cannot report: XMLHttpRequest with the
 * same bearer token as the generated client. Resolves with the parsed JSON answer; rejects with an
 * ApiError (status 0 when the request never got an answer).
 */
export function uploadForm<T>(
  url: string,
  form: FormData,
  onProgress?: (progress: UploadProgress) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress?.({ loaded: event.loaded, total: event.total });
    });
    xhr.addEventListener('load', () => {
      const body = parseBody(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else reject(new ApiError(xhr.status, body));
    });
    xhr.addEventListener('error', () => reject(new ApiError(0, null)));
    xhr.addEventListener('abort', () => reject(new ApiError(0, null)));
    xhr.send(form);
  });
}
