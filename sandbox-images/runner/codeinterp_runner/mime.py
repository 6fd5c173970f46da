"""A file's MIME type by its name: the runner's one copy of shared-model's MimeTypes.

Both homes of the runner use it: local mode types the artifacts it reports with it (pyodide_host),
and the IPython shim types the images it embeds. Python's own mimetypes disagrees on several
(.log, .jsonl, .parquet, .js ...). pyodide-assets/src/test/python holds it to shared-model's
rules/mime-types.json, the table the Java copy answers too.
"""

MIME_BY_EXTENSION = {
    'csv': 'text/csv',
    'tsv': 'text/tab-separated-values',
    'txt': 'text/plain',
    'log': 'text/plain',
    'md': 'text/markdown',
    'py': 'text/x-python',
    'js': 'text/javascript',
    'mjs': 'text/javascript',
    'wasm': 'application/wasm',
    'json': 'application/json',
    'jsonl': 'application/x-ndjson',
    'xml': 'application/xml',
    'html': 'text/html',
    'htm': 'text/html',
    'png': 'image/png',
    'jpg': 'image/jpeg',
    'jpeg': 'image/jpeg',
    'gif': 'image/gif',
    'webp': 'image/webp',
    'svg': 'image/svg+xml',
    'pdf': 'application/pdf',
    'zip': 'application/zip',
    'gz': 'application/gzip',
    'parquet': 'application/vnd.apache.parquet',
    'xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'xls': 'application/vnd.ms-excel',
    'docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
}


def mime_of(name):
    """The type the shared table gives ``name``'s extension (any case), else application/octet-stream."""
    dot = name.rfind('.')
    if dot < 0 or dot == len(name) - 1:
        return 'application/octet-stream'
    return MIME_BY_EXTENSION.get(name[dot + 1:].lower(), 'application/octet-stream')
