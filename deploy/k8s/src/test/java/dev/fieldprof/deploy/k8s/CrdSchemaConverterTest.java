package dev.fieldprof.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class CrdSchemaConverterTest {
    /** A CRD with each construct the converter treats specially. */
    private static final String CRD =
            """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata:
              name: widgets.example.dev
            spec:
              group: example.dev
              names:
                kind: Widget
              versions:
                - name: v1
                  served: true
                  schema:
                    openAPIV3Schema:
                      type: object
                      required: [spec]
                      properties:
                        spec:
                          type: object
                          properties:
                            size:
                              x-kubernetes-int-or-string: true
                            note:
                              type: string
                              nullable: true
                            config:
                              type: object
                              x-kubernetes-preserve-unknown-fields: true
                            labels:
                              type: object
                              additionalProperties:
                                type: string
                            auth:
                              type: object
                              properties:
                                type:
                                  type: string
                                password:
                                  type: string
                              oneOf:
                                - properties:
                                    password: {}
                                  required: [password]
                                - properties:
                                    type:
                                      enum: [none]
                - name: v0
                  served: false
                  schema:
                    openAPIV3Schema:
                      type: object
            """;

    private static List<String> validate(String widget) throws IOException {
        CustomResourceSchemas schemas = new CustomResourceSchemas();
        schemas.add(Manifests.read(CRD).get(0));
        assertThat(schemas.kinds()).containsExactly("example.dev/v1 Widget");
        return schemas.validate(Manifests.read(widget).get(0));
    }

    private static String widget(String spec) {
        return "apiVersion: example.dev/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n" + spec;
    }

    @Test
    void acceptsWhatTheSchemaDeclares() throws IOException {
        assertThat(
                        validate(
                                widget(
                                        """
                                          size: 3
                                          note: null
                                          config: {any: {nested: [1, 2]}}
                                          labels: {a: b}
                                          auth: {type: scram, password: secret}
                                        """)))
                .isEmpty();
        assertThat(validate(widget("  size: 50%\n  auth: {type: none}\n"))).isEmpty();
    }

    @Test
    void closesObjectsThatDoNotPreserveUnknownFields() throws IOException {
        assertThat(validate(widget("  colour: red\n")))
                .containsExactly(
                        "Widget w: /spec: property 'colour' is not defined in the schema and the"
                                + " schema does not allow additional properties");
    }

    @Test
    void keepsTheTypesOfMapValuesAndIntOrString() throws IOException {
        assertThat(validate(widget("  labels: {a: 1}\n  size: true\n")))
                .containsExactlyInAnyOrder(
                        "Widget w: /spec/labels/a: integer found, string expected",
                        "Widget w: /spec/size: boolean found, [integer, string] expected");
    }

    @Test
    void oneOfBranchesConstrainWithoutClosingTheObject() throws IOException {
        // Neither branch matches: no password, and a type other than none.
        assertThat(validate(widget("  auth: {type: scram}\n")))
                .containsExactly(
                        "Widget w: /spec/auth: must be valid to one and only one schema, but 0 are"
                                + " valid",
                        "Widget w: /spec/auth: required property 'password' not found",
                        "Widget w: /spec/auth/type: does not have a value in the enumeration"
                                + " [\"none\"]");
    }

    @Test
    void checksApiVersionKindAndMetadataAsTheApiServerDoes() throws IOException {
        assertThat(
                        validate(
                                """
                                apiVersion: example.dev/v1
                                kind: Widget
                                metadata:
                                  name: Not_A_Name
                                  owner: me
                                """))
                .containsExactlyInAnyOrder(
                        "Widget Not_A_Name: /: required property 'spec' not found",
                        "Widget Not_A_Name: /metadata: property 'owner' is not defined in the"
                                + " schema and the schema does not allow additional properties",
                        "Widget Not_A_Name: /metadata/name: does not match the regex pattern "
                                + CrdSchemaConverter.DNS_SUBDOMAIN);
        assertThat(validate("apiVersion: example.dev/v0\nkind: Widget\nmetadata:\n  name: w\n"))
                .containsExactly("Widget w: no CRD for apiVersion example.dev/v0, kind Widget");
    }
}
