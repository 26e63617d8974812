-- The new-alarm message's default text read "…发生门未锁：。请及时处理。" for an alarm without a
-- description. The default now fills {detail}, the description with its own leading "：" or nothing
-- (server/domain/messageCentre.ts). Only a template still holding the old default text is changed: an
-- administrator's rewording stays as written ({remark} is still filled).
UPDATE t_message_model
   SET f_message = '{house}于{time}发生{alarm}{detail}。请及时处理。'
 WHERE f_code = 'alarm'
   AND f_message = '{house}于{time}发生{alarm}：{remark}。请及时处理。';
