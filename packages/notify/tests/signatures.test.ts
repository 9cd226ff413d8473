import { describe, expect, it } from 'vitest';
import {
  aliyunSignature, aliyunStringToSign, buildAliyunSendSms, buildTencentSendSms, canonicalizedQuery, e164, percentEncode, tc3CanonicalRequest, tc3Sign,
} from '../src/index.ts';

// Golden vectors from the providers' own documentation.
describe('Alibaba Cloud RPC signature', () => {
  const smsDocParams = {
    AccessKeyId: 'testId', Action: 'SendSms', Format: 'XML', OutId: '123', PhoneNumbers: '15300000001', RegionId: 'cn-hangzhou',
    SignName: '阿里云短信测试专用', SignatureMethod: 'HMAC-SHA1', SignatureNonce: '45e25e9b-0a6f-4070-8c85-2956eda1b466', SignatureVersion: '1.0',
    TemplateCode: 'SMS_71390007', TemplateParam: '{"customer":"test"}', Timestamp: '2017-07-12T02:42:19Z', Version: '2017-05-25',
  };

  it('percent-encodes per RFC 3986 (space %20, * %2A, ~ kept, UTF-8 upper-case hex)', () => {
    expect(percentEncode('a b*~')).toBe('a%20b%2A~');
    expect(percentEncode("!'()")).toBe('%21%27%28%29');
    expect(percentEncode('/=&+:')).toBe('%2F%3D%26%2B%3A');
    expect(percentEncode('派')).toBe('%E6%B4%BE');
  });

  it('matches the SMS documentation example (SendSms, testId/testSecret)', () => {
    expect(aliyunStringToSign('GET', smsDocParams)).toBe(
      'GET&%2F&AccessKeyId%3DtestId%26Action%3DSendSms%26Format%3DXML%26OutId%3D123%26PhoneNumbers%3D15300000001%26RegionId%3Dcn-hangzhou%26SignName%3D%25E9%2598%25BF%25E9%2587%258C%25E4%25BA%2591%25E7%259F%25AD%25E4%25BF%25A1%25E6%25B5%258B%25E8%25AF%2595%25E4%25B8%2593%25E7%2594%25A8%26SignatureMethod%3DHMAC-SHA1%26SignatureNonce%3D45e25e9b-0a6f-4070-8c85-2956eda1b466%26SignatureVersion%3D1.0%26TemplateCode%3DSMS_71390007%26TemplateParam%3D%257B%2522customer%2522%253A%2522test%2522%257D%26Timestamp%3D2017-07-12T02%253A42%253A19Z%26Version%3D2017-05-25',
    );
    expect(aliyunSignature('GET', smsDocParams, 'testSecret')).toBe('zJDF+Lrzhj/ThnlvIToysFRq6t4=');
  });

  it('matches the RPC documentation example (DescribeRegions, testid/testsecret)', () => {
    const params = {
      Format: 'XML', AccessKeyId: 'testid', Action: 'DescribeRegions', SignatureMethod: 'HMAC-SHA1', SignatureNonce: '3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf',
      SignatureVersion: '1.0', Version: '2014-05-26', Timestamp: '2016-02-23T12:46:24Z',
    };
    expect(aliyunSignature('GET', params, 'testsecret')).toBe('OLeaidS1JvxuMvnyHOwuJ+uX5qY=');
    // A Signature already in the params is left out of what is signed.
    expect(aliyunSignature('GET', { ...params, Signature: 'x' }, 'testsecret')).toBe('OLeaidS1JvxuMvnyHOwuJ+uX5qY=');
  });

  it('builds a signed SendSms form POST with every parameter the API needs', () => {
    const request = buildAliyunSendSms(
      { endpoint: 'https://dysmsapi.aliyuncs.com/', region: 'cn-hangzhou', accessKeyId: 'LTAIkey', accessKeySecret: 's3cret', signName: '安全告警', templateCode: 'SMS_1', templateParam: 'content' },
      ['13800138000', '13900139000'],
      '检测到攻击: 1.2.3.4',
      { now: Date.UTC(2026, 0, 2, 3, 4, 5, 678), nonce: 'n-1' },
    );
    expect(request.method).toBe('POST');
    expect(request.url).toBe('https://dysmsapi.aliyuncs.com/');
    expect(request.headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    const params = Object.fromEntries(new URLSearchParams(request.body));
    const { Signature, ...signed } = params;
    expect(signed).toEqual({
      AccessKeyId: 'LTAIkey', Action: 'SendSms', Format: 'JSON', PhoneNumbers: '13800138000,13900139000', RegionId: 'cn-hangzhou', SignName: '安全告警',
      SignatureMethod: 'HMAC-SHA1', SignatureNonce: 'n-1', SignatureVersion: '1.0', TemplateCode: 'SMS_1', TemplateParam: '{"content":"检测到攻击: 1.2.3.4"}',
      Timestamp: '2026-01-02T03:04:05Z', Version: '2017-05-25',
    });
    expect(Signature).toBe(aliyunSignature('POST', signed, 's3cret'));
    expect(request.body?.startsWith(canonicalizedQuery(signed))).toBe(true);
    expect(request.body).not.toContain('s3cret');
  });
});

describe('Tencent Cloud TC3-HMAC-SHA256', () => {
  const doc = {
    secretId: 'AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******',
    secretKey: 'Gu5t9xGARNpq86cd98joQYCN3*******',
    service: 'cvm',
    host: 'cvm.tencentcloudapi.com',
    timestamp: 1551113065,
    payload: '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}',
  };

  it('matches the documentation example (DescribeInstances)', () => {
    expect(tc3CanonicalRequest(doc)).toBe(
      'POST\n/\n\ncontent-type:application/json; charset=utf-8\nhost:cvm.tencentcloudapi.com\n\ncontent-type;host\n35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064',
    );
    const signed = tc3Sign(doc);
    expect(signed.date).toBe('2019-02-25');
    expect(signed.signature).toBe('2230eefd229f582d8b1b891af7107b91597240707d778ab3738f756258d7652c');
    expect(signed.authorization).toBe(
      'TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******/2019-02-25/cvm/tc3_request, SignedHeaders=content-type;host, Signature=2230eefd229f582d8b1b891af7107b91597240707d778ab3738f756258d7652c',
    );
  });

  it('builds a SendSms call: E.164 numbers, the template text, the X-TC headers, signed over the endpoint host', () => {
    const request = buildTencentSendSms(
      { endpoint: 'http://127.0.0.1:9999/tencent', region: 'ap-beijing', secretId: 'AKIDx', secretKey: 'k', sdkAppId: '1400000000', signName: '签名', templateId: '123' },
      ['13800138000', '+85291234567'],
      'hello',
      { now: 1_700_000_000_500 },
    );
    expect(JSON.parse(request.body ?? '')).toEqual({
      PhoneNumberSet: ['+8613800138000', '+85291234567'], SmsSdkAppId: '1400000000', SignName: '签名', TemplateId: '123', TemplateParamSet: ['hello'],
    });
    expect(request.headers).toMatchObject({ 'X-TC-Action': 'SendSms', 'X-TC-Version': '2021-01-11', 'X-TC-Region': 'ap-beijing', 'X-TC-Timestamp': '1700000000' });
    const expected = tc3Sign({ secretId: 'AKIDx', secretKey: 'k', service: 'sms', host: '127.0.0.1:9999', timestamp: 1_700_000_000, payload: request.body ?? '' });
    expect(request.headers['Authorization']).toBe(expected.authorization);
    expect(e164('+1555')).toBe('+1555');
  });
});
