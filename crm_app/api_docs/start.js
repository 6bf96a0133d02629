// The API page (/api/docs): Swagger UI on this server's OpenAPI document, with every operation
// listed open, and no validator badge (it would send the document to another site).
const root = document.getElementById("swagger-ui");
window.ui = SwaggerUIBundle({
  url: root.dataset.openapi,
  domNode: root,
  deepLinking: true,
  docExpansion: "list",
  validatorUrl: null,
  tryItOutEnabled: false,
});
